import { dirname, resolve } from 'node:path';
import { parseDefinitionFast } from '../definitions/fast-parse.js';
import { DEFAULT_LOAD_LIMITS, fileTooLargeMessage } from '../definitions/limits.js';
import { parseDefinition } from '../definitions/parse.js';
import { fsErrorReason, type RegularFileRead, readRegularFile } from '../definitions/read-capped.js';
import type { LoadedDefinition, ParseResult } from '../definitions/types.js';
import { type Diagnostic, FILE_START, joinPointer, sortDiagnostics } from '../diagnostic.js';
import { ConfigError, UsageError } from '../errors.js';
import { createFsBoundary, describeRoot, toDisplayPath } from '../fs-boundary.js';
import type { WfsyncConfig } from '../generated/config.js';
import { suggestName } from '../text.js';
import { KNOWN_RULE_CODES } from '../validate/rules/index.js';
import { validateConfigSchema } from '../validate/schema.js';
import { maskConfigSecrets } from './mask.js';

export interface LoadedConfig {
  /** Absolute path of the config file. */
  path: string;
  /** Display path (relative to cwd). */
  file: string;
  /** Directory relative paths in the config are resolved against. */
  dir: string;
  config: WfsyncConfig;
}

/**
 * Read and validate wfsync.config.yaml. Every problem is a positioned Diagnostic; any error-level one throws a
 * ConfigError (exit 3) carrying all of them, so a broken config is reported in one run like a broken definition.
 * The file is read through the project boundary (fs-boundary.ts): a config that is a symbolic link leading outside
 * the project, or not a regular file, is refused unread.
 */
export function readConfig(path: string, cwd: string): LoadedConfig {
  const absolute = resolve(cwd, path);
  const file = toDisplayPath(cwd, absolute);
  const read = readRegularFile(absolute, DEFAULT_LOAD_LIMITS.maxBytes, createFsBoundary(cwd));
  if ('error' in read && read.error.code === 'ENOENT') throw new UsageError(`config file not found: ${file}`);
  if (!('bytes' in read)) throw configUnread(read, file);
  // The fast path when it can vouch for the file (most configs): no `yaml` to load on every run (~70 ms of start-up
  // on a pre-commit hook's every commit), and positions, read lazily, only if a finding needs one.
  const fast = parseDefinitionFast(file, read.bytes);
  const parsed: ParseResult = fast
    ? { definition: fast, diagnostics: [], text: fast.text }
    : parseDefinition(file, read.bytes);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  if (parsed.definition) {
    const schemaDiagnostics = validateConfigSchema(parsed.definition);
    diagnostics.push(...schemaDiagnostics);
    if (schemaDiagnostics.length === 0) diagnostics.push(...buildConfigDiagnostics(parsed.definition));
  }
  const sorted = sortDiagnostics(diagnostics);
  if (!parsed.definition || sorted.some((d) => d.severity === 'error')) {
    // The frames show the file with anything that may be a credential masked (a key put there by mistake).
    const text = maskConfigSecrets(parsed.definition?.text ?? '', parsed.definition);
    throw new ConfigError(`invalid config file ${file}`, sorted, new Map([[file, text]]));
  }
  return { path: absolute, file, dir: dirname(absolute), config: parsed.definition.value as WfsyncConfig };
}

/** Why the config file was not read, as a ConfigError (exit 3) with one diagnostic at its start (no code frame). */
function configUnread(read: Exclude<RegularFileRead, { bytes: Uint8Array }>, file: string): ConfigError {
  let code = 'config-unreadable';
  let message: string;
  if ('outside' in read) {
    code = 'config-outside-project';
    message = `${file} leads outside ${describeRoot(read.outside)} through a symbolic link; its content is not read`;
  } else if ('tooLarge' in read) {
    message = `cannot read config file ${file}: ${fileTooLargeMessage(read.tooLarge, DEFAULT_LOAD_LIMITS.maxBytes)}`;
  } else {
    const reason = 'error' in read ? fsErrorReason(read.error) : 'not a regular file';
    message = `cannot read config file ${file}: ${reason}`;
  }
  return new ConfigError(message, [{ code, severity: 'error', message, file, pointer: '', ...FILE_START }]);
}

/** Checks the schema cannot express: rule codes that do not exist. Pure. */
function buildConfigDiagnostics(definition: LoadedDefinition): Diagnostic[] {
  const config = definition.value as WfsyncConfig;
  const diagnostics: Diagnostic[] = [];
  const known = new Set<string>(KNOWN_RULE_CODES);
  const maps = [
    { at: '/rules', rules: config.rules ?? {} },
    ...(config.overrides ?? []).map((o, i) => ({
      at: joinPointer('/overrides', i, 'rules'),
      rules: o.rules,
    })),
  ];
  for (const { at, rules } of maps) {
    for (const code of Object.keys(rules)) {
      if (!known.has(code)) diagnostics.push(unknownRule(definition, joinPointer(at, code), code));
    }
  }
  return diagnostics;
}

function unknownRule(definition: LoadedDefinition, pointer: string, code: string): Diagnostic {
  const suggestion = suggestName(code, KNOWN_RULE_CODES);
  return {
    code: 'config-unknown-rule',
    severity: 'error',
    message: `unknown rule "${code}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; see "wfsync validate --list-rules"`,
    file: definition.file,
    pointer,
    ...definition.locate(pointer, 'key'),
  };
}
