/** One definition file checked on its own: what a worker thread does per file, and what it sends back. */
import path from 'node:path';
import type { FileFingerprint } from '../cache/entry.js';
import { buildFingerprint } from '../cache/fingerprint.js';
import {
  type DefinitionWithIncludes,
  type IncludedText,
  includedTextsFor,
  includesOf,
} from '../definitions/includes.js';
import type { LoadLimits } from '../definitions/limits.js';
import { type DefinitionSource, loadDefinitionBytes, readDefinitionBytes } from '../definitions/read.js';
import { parseDefinitionBytesFast } from '../definitions/read-fast.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { type Diagnostic, FILE_START } from '../diagnostic.js';
import { buildFileValidation } from '../validate/index.js';
import { identifierOf } from '../validate/rules/identifier-duplicate.js';
import type { RuleOptions } from '../validate/rules/index.js';
import { type DeclinedFile, type ParsedFile, readParsedFile } from './parse-file.js';

/** What every worker is started with (structured-cloned: plain data only). */
export interface CheckSetup {
  cwd: string;
  limits: LoadLimits;
  rules: RuleOptions;
  /** Also send each outcome's fingerprint, for the validate cache (`--cache`). */
  fingerprint?: boolean;
}

/** The result for one file: small on purpose, since it crosses threads. */
export interface FileOutcome {
  /** Reading, YAML, schema and per-file rule findings, in that order (each group sorted). */
  diagnostics: Diagnostic[];
  /** The text, only when there are findings to frame (a file without findings needs none). */
  text?: string;
  /** The texts of included files that findings point into (includedTextsFor), only when there are such findings. */
  includedTexts?: IncludedText[];
  /** `triggers[0].identifier`, for the project-wide duplicate check, when the file parsed and has one. */
  identifier?: string;
  /** What the outcome depended on (setup.fingerprint), unless it may not be cached (cache/fingerprint.ts). */
  fingerprint?: FileFingerprint;
}

/** Reads, parses and validates one file (display path relative to `setup.cwd`). Synchronous. */
export function checkDefinitionFile(file: string, setup: CheckSetup): FileOutcome {
  const absolute = path.resolve(setup.cwd, file);
  const read = readDefinitionBytes(absolute, file, setup.limits);
  // Unreadable, too large, not a regular file: nothing to parse, and nothing worth caching (no bytes were read).
  if (!('bytes' in read)) return { diagnostics: read.diagnostics };
  return checkDefinitionBytes(read.bytes, { absolute, file, limits: setup.limits }, setup);
}

/**
 * checkDefinitionFile for bytes already read (the cache's lookup read them). A file the fast path vouches for is
 * validated as js-yaml read it; only if that finds anything at all is the file redone with yaml (parseDefinition),
 * so every finding, position and message is the reference path's. `hash` is hashContent(bytes) when known.
 */
export function checkDefinitionBytes(
  bytes: Uint8Array,
  source: DefinitionSource,
  setup: Pick<CheckSetup, 'rules' | 'fingerprint'>,
  hash?: string,
): FileOutcome {
  const finish: Finish = (diagnostics, text, definition) => {
    const outcome = plainFinish(diagnostics, text, definition);
    if (setup.fingerprint) {
      const maxBytes = source.limits.maxBytes;
      const fingerprint = buildFingerprint({ bytes, maxBytes, definition, diagnostics, hash });
      if (fingerprint) outcome.fingerprint = fingerprint;
    }
    return outcome;
  };
  const fast = parseDefinitionBytesFast(bytes, source);
  if (fast !== undefined && buildFileValidation({ definitions: [fast], options: setup.rules }).length === 0) {
    return finish([], undefined, fast);
  }
  return checkDefinitionBytesSlow(bytes, source, setup, finish);
}

/** The reference path: yaml's parse with positions, every finding. */
function checkDefinitionBytesSlow(
  bytes: Uint8Array,
  source: DefinitionSource,
  setup: Pick<CheckSetup, 'rules'>,
  finish: Finish,
): FileOutcome {
  const loaded = loadDefinitionBytes(bytes, source);
  const diagnostics = loaded.diagnostics;
  if (loaded.definition) {
    diagnostics.push(...buildFileValidation({ definitions: [loaded.definition], options: setup.rules }));
  }
  // The text only when there are findings to frame.
  return finish(diagnostics, diagnostics.length > 0 ? loaded.text : undefined, loaded.definition);
}

/**
 * The first half of checkDefinitionFile (on a worker): read and parse (parse-file.ts), and a file the fast path could
 * not vouch for checked in full where it was read.
 */
export function parseDefinitionFile(file: string, setup: CheckSetup): ParsedFile {
  return settleParsedFile(readParsedFile(file, setup), setup);
}

/** What a worker sends for a file it read: as read, or, when the fast path declined it, its outcome in full. */
export function settleParsedFile(read: ParsedFile | DeclinedFile, setup: CheckSetup): ParsedFile {
  if (!('declined' in read)) return read;
  const { bytes, source } = read.declined;
  return { outcome: checkDefinitionBytesSlow(bytes, source, setup, plainFinish) };
}

/**
 * The second half (on the main thread): validate what parseDefinitionFile read. A definition without a finding gives
 * checkDefinitionFile's outcome for it; one with any is checked again from the file, in full, by checkDefinitionFile
 * itself (the reference path: every finding, position and message), as checkDefinitionBytes redoes it from the bytes.
 */
export function checkParsedFile(file: string, parsed: ParsedFile, setup: CheckSetup): FileOutcome {
  if ('outcome' in parsed) return parsed.outcome;
  const { value, includes = [] } = parsed.parsed;
  // Text and positions are only read to place a finding, and a finding is redone from the file below.
  const definition: DefinitionWithIncludes = { file, text: '', value, locate: () => FILE_START, includes };
  if (buildFileValidation({ definitions: [definition], options: setup.rules }).length > 0) {
    return checkDefinitionFile(file, setup);
  }
  return plainFinish([], undefined, definition);
}

/** A file's outcome from its findings, its text (only when there are findings) and its definition if it parsed. */
type Finish = (
  diagnostics: Diagnostic[],
  text: string | undefined,
  definition: LoadedDefinition | undefined,
) => FileOutcome;

/**
 * The outcome without a fingerprint. Built property by property, not spread: this runs for every file, and spreads
 * cost measurably at 10,000.
 */
const plainFinish: Finish = (diagnostics, text, definition) => {
  const outcome: FileOutcome = { diagnostics };
  if (text !== undefined) outcome.text = text;
  if (definition !== undefined && diagnostics.length > 0) {
    const included = includedTextsFor(definition.file, diagnostics, includesOf(definition));
    if (included.length > 0) outcome.includedTexts = included;
  }
  const identifier = definition && identifierOf(definition.value);
  if (identifier !== undefined) outcome.identifier = detached(identifier);
  return outcome;
};

/**
 * A copy of `text` that keeps no reference to the string it was cut from. js-yaml slices scalars out of the file's
 * text, and V8 keeps the whole text alive as long as a slice of it lives; an outcome lives to the end of the run, so
 * at 10,000 files the identifiers kept ~9 MB of texts alive, which every young-generation GC copied until promoted.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
