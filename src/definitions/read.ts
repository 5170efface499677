import path from 'node:path';
import { type Diagnostic, FILE_START, sortDiagnostics } from '../diagnostic.js';
import { parseDefinitionFast } from './fast-parse.js';
import { type FindOptions, type ScanResult, scanDefinitionFiles } from './find.js';
import { readDefinitionIncludes } from './includes.js';
import { fileTooLargeMessage, type LoadLimits, resolveLoadLimits } from './limits.js';
import { parseDefinition } from './parse.js';
import { fsErrorReason, readRegularFile } from './read-capped.js';
import type { LoadedDefinition, ParseResult, ReadResult } from './types.js';

export interface ReadOptions extends FindOptions {
  limits?: Partial<LoadLimits>;
}

/**
 * Finds and parses every definition file, without validating them (check/ does both); every broken file is reported
 * in the same run. Only a path that does not exist throws (UsageError): an unreadable file or directory is a
 * `file-unreadable` diagnostic. Reads are synchronous on purpose: for thousands of small files they measured 5×
 * faster than bounded concurrent async reads, and parsing (CPU) dominates either way. So, after the directory scan,
 * this blocks the event loop until every file is read and parsed: right for the CLI, which has nothing else to do
 * meanwhile.
 */
export async function readDefinitions(paths: readonly string[], options: ReadOptions): Promise<ReadResult> {
  const scan = await scanDefinitionFiles(paths, options);
  const limits = resolveLoadLimits(options.limits);
  const definitions: LoadedDefinition[] = [];
  const diagnostics = scanDiagnostics(scan);
  const sources = new Map<string, string>();
  for (const file of scan.files) {
    const loaded = readDefinition(path.resolve(options.cwd, file), file, limits);
    if (loaded.definition) definitions.push(loaded.definition);
    if (loaded.text !== undefined) sources.set(file, loaded.text);
    diagnostics.push(...loaded.diagnostics);
  }
  return { definitions, diagnostics: sortDiagnostics(diagnostics), files: scan.files, sources };
}

/** The directories a scan could not list, as `file-unreadable` diagnostics. */
export function scanDiagnostics(scan: ScanResult): Diagnostic[] {
  return scan.unreadable.map(({ path: dir, error }) =>
    make(dir, 'file-unreadable', `cannot list directory: ${fsErrorReason(error)}`),
  );
}

/** Reads one file (size checked on the open descriptor before any byte is read) and parses it (parseDefinitionBytes). */
export function readDefinition(absolute: string, file: string, limits: LoadLimits): ParseResult {
  const read = readDefinitionBytes(absolute, file, limits);
  return 'bytes' in read ? parseDefinitionBytes(read.bytes, { absolute, file, limits }) : read;
}

/** Where a definition's bytes came from: its absolute path, its display path, and the limits it is read with. */
export interface DefinitionSource {
  absolute: string;
  file: string;
  limits: LoadLimits;
}

/**
 * A definition file's bytes parsed, `content: {file: …}` references resolved (includes.ts): by the fast path
 * (fast-parse.ts) when it can vouch for the file, which gives exactly what the reference path gives (a property test
 * holds the two to it), else by the reference path, loadDefinitionBytes, which says what is wrong.
 */
export function parseDefinitionBytes(bytes: Uint8Array, source: DefinitionSource): ParseResult {
  const definition = parseDefinitionFast(source.file, bytes, source.limits);
  if (definition !== undefined) {
    const fast = readDefinitionIncludes({ definition, diagnostics: [] }, includeOptions(source));
    if (fast.diagnostics.length === 0) return { ...fast, text: definition.text };
  }
  return loadDefinitionBytes(bytes, source);
}

/** The reference path: yaml's parse with every diagnostic, then the references resolved. */
export function loadDefinitionBytes(bytes: Uint8Array, source: DefinitionSource): ParseResult {
  return readDefinitionIncludes(parseDefinition(source.file, bytes, source.limits), includeOptions(source));
}

function includeOptions(source: DefinitionSource): { definitionPath: string; maxBytes: number } {
  return { definitionPath: source.absolute, maxBytes: source.limits.maxBytes };
}

/**
 * The bytes of one definition file, or why they cannot be had (the diagnostics readDefinition reports then).
 * A file over the size limit is refused before any byte is read.
 */
export function readDefinitionBytes(
  absolute: string,
  file: string,
  limits: LoadLimits,
): { bytes: Uint8Array } | { diagnostics: Diagnostic[] } {
  const read = readRegularFile(absolute, limits.maxBytes);
  if ('bytes' in read) return read;
  if ('tooLarge' in read) {
    return {
      diagnostics: [make(file, 'file-too-large', fileTooLargeMessage(read.tooLarge, limits.maxBytes))],
    };
  }
  const reason = 'error' in read ? fsErrorReason(read.error) : PROBLEMS[read.problem];
  return { diagnostics: [make(file, 'file-unreadable', `cannot read file: ${reason}`)] };
}

const PROBLEMS = { directory: fsErrorReason({ code: 'EISDIR' }), 'not-regular': 'not a regular file' };

function make(file: string, code: string, message: string): Diagnostic {
  return { code, severity: 'error', message, file, pointer: '', ...FILE_START };
}
