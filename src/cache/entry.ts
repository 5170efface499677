/**
 * One file's entry in the validate cache: what made its outcome (the bytes, the texts it included) and the outcome
 * itself, minus the text (a hit with findings decodes the bytes it has just read). Pure.
 */
import type { Diagnostic, Severity } from '../diagnostic.js';
import { isRecord } from '../json.js';

/** What a file's outcome depends on besides its display path and the cache's global key. */
export interface FileFingerprint {
  /** hashContent of the file's bytes. */
  hash: string;
  /** Every `{file: …}` reference the outcome used, once per path as written, in the order first met. */
  includes: IncludeFingerprint[];
}

export interface IncludeFingerprint {
  /** The path as written in the definition (relative to the definition's directory). */
  path: string;
  /** hashContent of the text it resolved to (as the definition sees it: BOM dropped, line breaks normalized). */
  hash: string;
}

/** As used. Stored, empty lists, absent values and a `file` equal to the entry's path are left out (StoredEntry). */
export interface CacheEntry {
  /** The display path the outcome was computed for (diagnostics name it). */
  file: string;
  hash: string;
  includes?: IncludeFingerprint[];
  identifier?: string;
  diagnostics?: Diagnostic[];
}

export function buildCacheEntry(
  file: string,
  fingerprint: FileFingerprint,
  /** The parts of check-cached.ts's FileOutcome an entry holds (no texts, no definition). */
  outcome: { diagnostics: Diagnostic[]; identifier?: string },
): CacheEntry {
  // Property by property rather than conditional spreads: one entry per file, 10,000 in a large run.
  const entry: CacheEntry = { file, hash: fingerprint.hash };
  if (fingerprint.includes.length > 0) entry.includes = fingerprint.includes;
  if (outcome.identifier !== undefined) entry.identifier = outcome.identifier;
  if (outcome.diagnostics.length > 0) entry.diagnostics = outcome.diagnostics;
  return entry;
}

/** An entry as stored: with its path, and without its display path when that is the same (run from the root). */
export type StoredEntry = Omit<CacheEntry, 'file'> & { path: string; file?: string };

export function storedEntry(path: string, entry: CacheEntry): StoredEntry {
  // One shape for the common entry ({path, hash, identifier}): JSON.stringify is fastest on uniform objects.
  const stored: StoredEntry = { path, hash: entry.hash };
  if (entry.file !== path) stored.file = entry.file;
  if (entry.includes) stored.includes = entry.includes;
  if (entry.identifier !== undefined) stored.identifier = entry.identifier;
  if (entry.diagnostics) stored.diagnostics = entry.diagnostics;
  return stored;
}

/**
 * The entry a value stored under `path` holds, checked field by field (the file may be damaged, or written by hand
 * or by something else); undefined when anything is off. Diagnostics are rebuilt with exactly the Diagnostic fields.
 */
export function readCacheEntry(value: unknown, path: string): CacheEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { hash, includes, identifier, diagnostics } = value;
  const file = value.file ?? path;
  if (typeof file !== 'string' || typeof hash !== 'string') return undefined;
  if (identifier !== undefined && typeof identifier !== 'string') return undefined;
  const entry: CacheEntry = { file, hash };
  if (includes !== undefined) {
    if (!Array.isArray(includes) || includes.length === 0 || !includes.every(isIncludeFingerprint))
      return undefined;
    entry.includes = includes.map(({ path, hash }: IncludeFingerprint) => ({ path, hash }));
  }
  if (identifier !== undefined) entry.identifier = identifier;
  if (diagnostics !== undefined) {
    if (!Array.isArray(diagnostics) || diagnostics.length === 0) return undefined;
    const read: Diagnostic[] = [];
    for (const item of diagnostics) {
      const diagnostic = readDiagnostic(item);
      if (diagnostic === undefined) return undefined;
      read.push(diagnostic);
    }
    entry.diagnostics = read;
  }
  return entry;
}

const SEVERITIES: ReadonlySet<unknown> = new Set<Severity>(['error', 'warning', 'info']);

function readDiagnostic(value: unknown): Diagnostic | undefined {
  if (!isRecord(value)) return undefined;
  const {
    code,
    severity,
    message,
    file,
    pointer,
    line,
    column,
    endLine,
    endColumn,
    includedBy,
    suppressedBy,
  } = value;
  if (typeof code !== 'string' || typeof message !== 'string' || typeof file !== 'string') return undefined;
  if (typeof pointer !== 'string' || !SEVERITIES.has(severity)) return undefined;
  if (!isPosition(line) || !isPosition(column) || !isPosition(endLine) || !isPosition(endColumn)) {
    return undefined;
  }
  if (includedBy !== undefined && typeof includedBy !== 'string') return undefined;
  const diagnostic: Diagnostic = {
    code,
    severity: severity as Severity,
    message,
    file,
    pointer,
    line,
    column,
    endLine,
    endColumn,
  };
  if (includedBy !== undefined) diagnostic.includedBy = includedBy;
  if (suppressedBy === undefined) return diagnostic;
  // A finding a `wfsync-disable` comment silenced (validate/suppressions.ts), kept for --verbose.
  if (!isRecord(suppressedBy) || !isPosition(suppressedBy.line) || typeof suppressedBy.reason !== 'string') {
    return undefined;
  }
  return {
    ...diagnostic,
    suppressedBy: { line: suppressedBy.line, reason: suppressedBy.reason },
  } as Diagnostic;
}

function isIncludeFingerprint(value: unknown): value is IncludeFingerprint {
  return isRecord(value) && typeof value.path === 'string' && typeof value.hash === 'string';
}

function isPosition(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
