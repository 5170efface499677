/** One definition file checked on its own: what a worker thread does per file, and what it sends back. */
import path from 'node:path';
import type { LoadLimits } from '../definitions/limits.js';
import { readDefinitionFileFast } from '../definitions/read-fast.js';
import type { Diagnostic } from '../diagnostic.js';
import { buildFileValidation } from '../validate/index.js';
import type { RuleOptions } from '../validate/rules/index.js';

/** What every worker is started with (structured-cloned: plain data only). */
export interface CheckSetup {
  cwd: string;
  limits: LoadLimits;
  rules: RuleOptions;
}

/** The result for one file: small on purpose, since it crosses threads. */
export interface FileOutcome {
  /** Reading, YAML, schema and per-file rule findings, in that order (each group sorted). */
  diagnostics: Diagnostic[];
  /** The text, only when there are findings to frame (a file without findings needs none). */
  text?: string;
  /** `triggers[0].identifier`, for the project-wide duplicate check, when the file parsed and has one. */
  identifier?: string;
}

/**
 * Reads, parses and validates one file (display path relative to `setup.cwd`). Synchronous. A file the fast path
 * vouches for is validated as js-yaml read it; only if that finds anything at all is the file redone with yaml
 * (parseDefinition), so every finding, position and message is the reference path's.
 */
export function checkDefinitionFile(file: string, setup: CheckSetup): FileOutcome {
  const read = readDefinitionFileFast(path.resolve(setup.cwd, file), file, setup.limits);
  if ('definition' in read) {
    const findings = buildFileValidation({ definitions: [read.definition], options: setup.rules });
    if (findings.length === 0) return withIdentifier({ diagnostics: [] }, read.definition.value);
  }
  const loaded = 'result' in read ? read.result : read.slow();
  const diagnostics = loaded.diagnostics;
  if (loaded.definition) {
    diagnostics.push(...buildFileValidation({ definitions: [loaded.definition], options: setup.rules }));
  }
  const outcome: FileOutcome = {
    diagnostics,
    ...(diagnostics.length > 0 && loaded.text !== undefined ? { text: loaded.text } : {}),
  };
  return loaded.definition ? withIdentifier(outcome, loaded.definition.value) : outcome;
}

function withIdentifier(outcome: FileOutcome, value: unknown): FileOutcome {
  const identifier = identifierOf(value);
  return identifier === undefined ? outcome : { ...outcome, identifier };
}

/**
 * The identifier `identifier-duplicate` compares, read the way that rule reads it (any parsed value, valid or not).
 * It only picks the files worth a second look: the rule itself then runs on those files.
 */
export function identifierOf(value: unknown): string | undefined {
  if (!isRecord(value) || !Array.isArray(value.triggers)) return undefined;
  const trigger: unknown = value.triggers[0];
  return isRecord(trigger) && typeof trigger.identifier === 'string' ? trigger.identifier : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
