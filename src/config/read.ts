import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { toDisplayPath } from '../definitions/find.js';
import { parseDefinition } from '../definitions/parse.js';
import type { Diagnostic } from '../diagnostic.js';
import { sortDiagnostics } from '../diagnostic.js';
import { ConfigError, UsageError } from '../errors.js';
import type { WfsyncConfig } from '../generated/config.js';
import { validateConfigSchema } from '../validate/schema.js';
import { buildConfigDiagnostics } from './rules.js';

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
    throw new ConfigError(
      `invalid config file ${file}`,
      sorted,
      new Map([[file, parsed.definition?.text ?? '']]),
    );
  }
  return { path: absolute, file, dir: dirname(absolute), config: parsed.definition.value as WfsyncConfig };
}
