/** One definition file checked on its own: what a worker thread does per file, and what it sends back. */
import path from 'node:path';
import type { LoadLimits } from '../definitions/limits.js';
import { readDefinitionFile } from '../definitions/read.js';
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

/** Reads, parses and validates one file (display path relative to `setup.cwd`). Synchronous. */
export function checkDefinitionFile(file: string, setup: CheckSetup): FileOutcome {
  const loaded = readDefinitionFile(path.resolve(setup.cwd, file), file, setup.limits);
  const diagnostics = loaded.diagnostics;
  let identifier: string | undefined;
  if (loaded.definition) {
    diagnostics.push(...buildFileValidation({ definitions: [loaded.definition], options: setup.rules }));
    identifier = identifierOf(loaded.definition.value);
  }
  return {
    diagnostics,
    ...(diagnostics.length > 0 && loaded.text !== undefined ? { text: loaded.text } : {}),
    ...(identifier === undefined ? {} : { identifier }),
  };
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
