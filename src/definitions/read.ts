import { type Diagnostic, FILE_START } from '../diagnostic.js';
import { describeRoot, type FsBoundary, workingBoundary } from '../fs-boundary.js';
import { parseDefinitionFast } from './fast-parse.js';
import type { ScanResult } from './find.js';
import { type IncludeOptions, readDefinitionIncludes } from './includes.js';
import { fileTooLargeMessage, type LoadLimits } from './limits.js';
import { parseDefinition } from './parse.js';
import { fsErrorReason, readRegularFile } from './read-capped.js';
import type { LoadedDefinition, ParseResult } from './types.js';

/** The directories a scan could not list and the paths it refused, as diagnostics. */
export function scanDiagnostics(scan: ScanResult): Diagnostic[] {
  return [
    ...scan.unreadable.map(({ path: dir, error }) =>
      make(dir, 'file-unreadable', `cannot list directory: ${fsErrorReason(error)}`),
    ),
    ...scan.refused.map(({ path, code, message }) => make(path, code, message)),
  ];
}

/** Reads one file (size checked on the open descriptor before any byte is read) and parses it (parseDefinitionBytes). */
export function readDefinition(
  source: DefinitionSource,
  vouch?: (definition: LoadedDefinition) => boolean,
): ParseResult {
  const read = readDefinitionBytes(source);
  return 'bytes' in read ? parseDefinitionBytes(read.bytes, source, vouch) : read;
}

/**
 * Where a definition's bytes came from: its absolute path, its display path, the limits it is read with, and the
 * boundary it and its included files are read through (by default, the working directory's).
 */
export interface DefinitionSource {
  absolute: string;
  file: string;
  limits: LoadLimits;
  boundary?: FsBoundary;
}

/**
 * A definition file's bytes parsed, `content: {file: …}` references resolved (includes.ts): by the fast path
 * (fast-parse.ts) when it can vouch for the file and `vouch` (the caller's own check, e.g. that validation finds
 * nothing) agrees, else by the reference path, loadDefinitionBytes, which says what is wrong. A property test holds
 * the fast path to the reference where it answers; where a file has any finding, only the reference's findings and
 * positions are reported, as a fast-path gap would otherwise reach the messages.
 */
export function parseDefinitionBytes(
  bytes: Uint8Array,
  source: DefinitionSource,
  vouch?: (definition: LoadedDefinition) => boolean,
): ParseResult {
  const definition = parseDefinitionFast(source.file, bytes, source.limits);
  if (definition !== undefined) {
    const fast = readDefinitionIncludes({ definition, diagnostics: [] }, includeOptions(source));
    if (fast.diagnostics.length === 0 && (vouch === undefined || vouch(fast.definition!))) {
      // A literal, not a spread: this runs for every file.
      return { definition: fast.definition, diagnostics: fast.diagnostics, text: definition.text };
    }
  }
  return loadDefinitionBytes(bytes, source);
}

/** The reference path: yaml's parse with every diagnostic, then the references resolved. */
export function loadDefinitionBytes(bytes: Uint8Array, source: DefinitionSource): ParseResult {
  return readDefinitionIncludes(parseDefinition(source.file, bytes, source.limits), includeOptions(source));
}

function includeOptions(source: DefinitionSource): IncludeOptions {
  // A plain literal, not a spread: this runs for every file.
  return { definitionPath: source.absolute, maxBytes: source.limits.maxBytes, boundary: source.boundary };
}

/**
 * The bytes of one definition file, or why they cannot be had (the diagnostics readDefinition reports then).
 * A file over the size limit, or leading outside the project (a symbolic link to `/proc/self/environ`, `~/.npmrc`
 * or a definition elsewhere), is refused before any byte is read.
 */
export function readDefinitionBytes(
  source: DefinitionSource,
): { bytes: Uint8Array } | { diagnostics: Diagnostic[] } {
  const { absolute, file, limits } = source;
  const read = readRegularFile(absolute, limits.maxBytes, source.boundary ?? workingBoundary());
  if ('bytes' in read) return read;
  if ('outside' in read) {
    const message =
      `${file} leads outside ${describeRoot(read.outside)} through a symbolic link; its content is not read: ` +
      'keep definitions inside it';
    return { diagnostics: [make(file, 'definition-outside-project', message)] };
  }
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
