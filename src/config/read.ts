import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { toDisplayPath } from '../definitions/find.js';
import { parseDefinition } from '../definitions/parse.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { type Diagnostic, joinPointer, sortDiagnostics } from '../diagnostic.js';
import { ConfigError, UsageError } from '../errors.js';
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
 */
export function readConfig(path: string, cwd: string): LoadedConfig {
  const absolute = resolve(cwd, path);
  const file = toDisplayPath(cwd, absolute);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`config file not found: ${file}`);
    throw new ConfigError(`cannot read config file ${file}: ${code ?? String(error)}`);
  }
  const parsed = parseDefinition(file, bytes);
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

/** Checks the schema cannot express: rule codes that do not exist. Pure. */
function buildConfigDiagnostics(definition: LoadedDefinition): Diagnostic[] {
  const config = definition.value as WfsyncConfig;
  const diagnostics: Diagnostic[] = [];
  const known = new Set<string>(KNOWN_RULE_CODES);
  for (const code of Object.keys(config.rules ?? {})) {
    if (known.has(code)) continue;
    const pointer = joinPointer('/rules', code);
    const suggestion = suggestName(code, KNOWN_RULE_CODES);
    diagnostics.push({
      code: 'config-unknown-rule',
      severity: 'error',
      message: `unknown rule "${code}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; see "wfsync validate --list-rules"`,
      file: definition.file,
      pointer,
      ...definition.locate(pointer, 'key'),
    });
  }
  return diagnostics;
}
