/**
 * What a preview is rendered with, when the user gives it: `--payload`, `--subscriber` and `--events` files (JSON
 * the user names), and the named payloads kept next to a definition in `<name>.previews.json`. A file that does not
 * exist is a usage error (exit 64); a file that is not JSON, or not of the expected shape, is invalid input (exit 3)
 * with a diagnostic at its file:line:col. The page's payload editor goes through the same checks.
 *
 * Why a sibling JSON file and not a `previews:` key in the definition: a key in the definition would have to be kept
 * out of the schema checks, the plan's bodies and what is sent to the service; and a sibling `.yaml` would be taken
 * for a definition by the search for `*.yaml`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../definitions/read-capped.js';
import { type Diagnostic, FILE_START, joinPointer } from '../diagnostic.js';
import { UsageError, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { type FsBoundary, toDisplayPath } from '../fs-boundary.js';
import { isRecord, JsonTooDeepError, parseJson } from '../json.js';
import type { RenderData } from '../render/index.js';

export type Json = Record<string, unknown>;

/** What replaces the sample data; each part given replaces that part whole. */
export type DataOverrides = Partial<Pick<RenderData, 'payload' | 'subscriber' | 'events'>>;

export type DataKind = keyof DataOverrides;

const MAX_DATA_BYTES = 4 * 1024 * 1024;

/** `text` as JSON, or a diagnostic at the character JSON.parse stopped at. */
export function parseJsonText(
  text: string,
  file: string,
): { value: unknown; diagnostic?: undefined } | { diagnostic: Diagnostic } {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    if (error instanceof JsonTooDeepError)
      return { diagnostic: dataDiagnostic(file, `the file is ${error.message}`, '', 'data-not-json') };
    const message = error instanceof Error ? error.message : String(error);
    const { line, column } = positionOf(text, jsonErrorOffset(text, message));
    return {
      diagnostic: {
        code: 'data-not-json',
        severity: 'error',
        message: `not JSON: ${message.replace(/( in JSON)? at position \d+[\s\S]*$/, '').replace(/, (\.\.\.)?"[\s\S]*" is not valid JSON$/, '')}`,
        file,
        pointer: '',
        line,
        column,
        endLine: line,
        endColumn: column + 1,
      },
    };
  }
}

/**
 * Where JSON.parse stopped: the position its message gives, or (V8's "Unexpected token 'x', ..."context"... is not
 * valid JSON", which gives none) the token found through the context it quotes: ten characters either side.
 */
export function jsonErrorOffset(text: string, message: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const quoted = /^Unexpected token '([\s\S]+?)', (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/.exec(
    message,
  );
  if (quoted) {
    const [, token = '', lead, context = ''] = quoted;
    const found = text.indexOf(context);
    if (found !== -1) return lead ? found + 10 : found + Math.max(0, context.indexOf(token));
  }
  return text.length;
}

/** 1-based line and column (UTF-16 code units) of an offset in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** Whether `value` has the shape `kind` needs; a diagnostic saying what it should be otherwise. */
export function checkDataShape(
  kind: DataKind,
  value: unknown,
  file: string,
  pointer = '',
): Diagnostic | undefined {
  if (kind === 'events') {
    if (!Array.isArray(value))
      return dataDiagnostic(file, 'events must be an array of trigger payloads (objects)', pointer);
    const bad = value.findIndex((event) => !isRecord(event));
    return bad === -1
      ? undefined
      : dataDiagnostic(file, `event ${bad} is not an object (a trigger payload)`, `${pointer}/${bad}`);
  }
  return isRecord(value) ? undefined : dataDiagnostic(file, `the ${kind} must be a JSON object`, pointer);
}

/** A problem with a data file as a whole (no position inside it): its shape unless `code` says otherwise. */
function dataDiagnostic(file: string, message: string, pointer = '', code = 'data-shape'): Diagnostic {
  return { code, severity: 'error', message, file, pointer, ...FILE_START };
}

/** A `--payload`/`--subscriber`/`--events` file: read, parsed, checked; throws the user's mistake as a WfsyncError. */
export function readDataFile(kind: DataKind, given: string, cwd: string): Json | Json[] {
  const absolute = path.resolve(cwd, given);
  const file = toDisplayPath(cwd, absolute);
  let text: string;
  try {
    const bytes = readFileSync(absolute);
    if (bytes.length > MAX_DATA_BYTES) throw new UsageError(`--${kind} ${file}: larger than 4 MiB`);
    text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof WfsyncError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--${kind} ${file}: ${code === 'ENOENT' ? 'no such file' : String((error as Error).message)}`,
    );
  }
  const parsed = parseJsonText(text, file);
  const problem = 'value' in parsed ? checkDataShape(kind, parsed.value, file) : parsed.diagnostic;
  if (problem || !('value' in parsed)) {
    throw new WfsyncError(`--${kind} ${file} cannot be used: ${problem?.message}`, {
      exitCode: ExitCode.Invalid,
      diagnostics: problem ? [problem] : [],
      sources: new Map([[file, text]]),
    });
  }
  return parsed.value as Json | Json[];
}

/** `workflows/order.yaml` → `workflows/order.previews.json`. */
export function previewsFileOf(definitionPath: string): string {
  return `${definitionPath.replace(/\.ya?ml$/i, '')}.previews.json`;
}

export interface NamedPreviews {
  /** The previews file (display path), when it exists. */
  file?: string;
  previews: Map<string, DataOverrides>;
  diagnostics: Diagnostic[];
  text?: string;
}

/**
 * The named payloads next to a definition: `{ "previews": { "<name>": { "payload": {…}, "subscriber": {…},
 * "events": [{…}] } } }`, each part optional. No file: none. Problems are diagnostics (the file is then ignored).
 */
export function readNamedPreviews(
  absoluteDefinition: string,
  cwd: string,
  boundary: FsBoundary,
): NamedPreviews {
  const absolute = previewsFileOf(absoluteDefinition);
  const file = toDisplayPath(cwd, absolute);
  const read = readRegularFile(absolute, MAX_DATA_BYTES, boundary);
  if ('error' in read && read.error.code === 'ENOENT') return { previews: new Map(), diagnostics: [] };
  if (!('bytes' in read))
    return {
      file,
      previews: new Map(),
      diagnostics: [dataDiagnostic(file, 'the previews file could not be read', '', 'previews-unreadable')],
    };
  const text = new TextDecoder().decode(read.bytes).replace(/^\uFEFF/, '');
  const parsed = parseJsonText(text, file);
  if (parsed.diagnostic) return { file, text, previews: new Map(), diagnostics: [parsed.diagnostic] };
  const { previews, diagnostics } = buildNamedPreviews(parsed.value, file);
  return { file, text, previews, diagnostics };
}

function buildNamedPreviews(
  value: unknown,
  file: string,
): { previews: Map<string, DataOverrides>; diagnostics: Diagnostic[] } {
  const previews = new Map<string, DataOverrides>();
  const diagnostics: Diagnostic[] = [];
  const section = isRecord(value) ? value.previews : undefined;
  if (!isRecord(section)) {
    diagnostics.push(dataDiagnostic(file, 'expected { "previews": { "<name>": { "payload": {…} } } }'));
    return { previews, diagnostics };
  }
  for (const [name, entry] of Object.entries(section)) {
    const pointer = joinPointer('/previews', name);
    if (!isRecord(entry)) {
      diagnostics.push(
        dataDiagnostic(
          file,
          `preview "${name}" must be an object with payload, subscriber or events`,
          pointer,
        ),
      );
      continue;
    }
    const overrides: DataOverrides = {};
    for (const [key, part] of Object.entries(entry)) {
      if (key !== 'payload' && key !== 'subscriber' && key !== 'events') {
        diagnostics.push(
          dataDiagnostic(
            file,
            `preview "${name}": unknown key "${key}" (payload, subscriber, events)`,
            `${pointer}/${key}`,
          ),
        );
        continue;
      }
      const problem = checkDataShape(key, part, file, `${pointer}/${key}`);
      if (problem) diagnostics.push(problem);
      else (overrides as Record<string, unknown>)[key] = part;
    }
    previews.set(name, overrides);
  }
  return { previews, diagnostics };
}
