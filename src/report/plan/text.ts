/** Small text pieces the plan formats share: values, field changes, diff lines. All output is terminal-safe. */
import { canonicalJson, isRecord } from '../../json.js';
import type { FieldChange } from '../../plan/types.js';
import { sanitizeTerminalText } from '../terminal-text.js';

/** Longest value shown in a field change (characters); the diff has the whole of it. */
export const MAX_VALUE_LENGTH = 60;

/** Field changes listed per workflow; the rest are counted (the diff shows them all). */
export const MAX_CHANGES_LISTED = 30;

/** How an absent side of a change reads. JSON never produces this text, so it cannot be mistaken for a value. */
export const NOT_SET = '(not set)';

/** Cuts `text` to at most `max` characters (code points, so no surrogate pair is split), ending with `…`. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * A value as JSON on one line (`"Hi {{name}}"`, `false`, `{"amount":5}`), truncated; `(not set)` when absent.
 * JSON escapes line breaks and C0 controls; the rest (bidi overrides…) is made visible.
 */
export function formatValue(value: unknown, max = MAX_VALUE_LENGTH): string {
  if (value === undefined) return NOT_SET;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return truncateText(sanitizeTerminalText(text), max);
}

/** The path a user reads (`steps[0] "mail".template.content`), safe on one line. */
export function formatPath(change: Pick<FieldChange, 'path'>): string {
  return sanitizeTerminalText(change.path === '' ? '(whole workflow)' : change.path);
}

/** One change as the formats list it: where the values first differ, both values there, and what else differs. */
export interface ChangeSummary {
  /** The change's path, down to the first differing element of a list or key of an object. */
  path: string;
  /** Service side, then file side, as formatValue writes them. */
  actual: string;
  desired: string;
  /** `(3 → 4 items)`, `(and other differences)`; empty when the values shown are the whole difference. */
  note: string;
}

/**
 * A list or object that differs is shown at its first differing element (`tags[2]: "c" → "d"`,
 * `data.customer.name: "a" → "b"`), never as two cut copies of an identical prefix; the diff has the rest.
 */
export function summarizeChange(change: FieldChange): ChangeSummary {
  let path = change.path;
  let actual = change.kind === 'only-in-file' ? undefined : change.actual;
  let desired = change.kind === 'only-on-service' ? undefined : change.desired;
  const notes: string[] = [];
  let more = false;
  for (let depth = 0; depth < MAX_FOCUS_DEPTH && change.kind === 'changed'; depth++) {
    let step: { key: string | number; count: number } | undefined;
    if (Array.isArray(actual) && Array.isArray(desired)) {
      if (depth === 0 && actual.length !== desired.length)
        notes.push(`${actual.length} → ${desired.length} items`);
      step = firstDifference(
        Array.from({ length: Math.max(actual.length, desired.length) }, (_, i) => i),
        (i) => [actual as unknown[], desired as unknown[]].map((list) => list[i as number]),
      );
    } else if (isRecord(actual) && isRecord(desired)) {
      const keys = [...new Set([...Object.keys(desired), ...Object.keys(actual)])];
      const [a, d] = [actual, desired];
      step = firstDifference(keys, (key) => [a[key as string], d[key as string]]);
    }
    if (step === undefined) break;
    more ||= step.count > 1;
    const { key } = step;
    path = typeof key === 'number' ? `${path}[${key}]` : joinKey(path, key);
    actual = (actual as Record<string | number, unknown>)[key];
    desired = (desired as Record<string | number, unknown>)[key];
    if (actual === undefined || desired === undefined) break;
  }
  if (more) notes.push('and other differences');
  return {
    path: formatPath({ path }),
    actual: change.kind === 'only-in-file' ? NOT_SET : formatValue(actual),
    desired: change.kind === 'only-on-service' ? NOT_SET : formatValue(desired),
    note: notes.length === 0 ? '' : `(${notes.join('; ')})`,
  };
}

/** How far a summary follows nested lists and objects (values come from depth-checked data anyway). */
const MAX_FOCUS_DEPTH = 16;

function firstDifference<K>(
  keys: readonly K[],
  sides: (key: K) => unknown[],
): { key: K; count: number } | undefined {
  let first: K | undefined;
  let count = 0;
  for (const key of keys) {
    const [a, b] = sides(key);
    if (canonicalJson(a) === canonicalJson(b)) continue;
    first ??= key;
    count++;
  }
  return first === undefined ? undefined : { key: first, count };
}

/** `data.customer`, but `data["a b"]` for a key that is not a plain name. */
function joinKey(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** `critical: false → true` (service → file); `tags[2]: "c" → "d" (3 → 4 items)`. */
export function formatChange(change: FieldChange): string {
  const { path, actual, desired, note } = summarizeChange(change);
  return `${path}: ${actual} → ${desired}${note === '' ? '' : ` ${note}`}`;
}

/**
 * The unified diff's lines, each safe for a terminal (tabs kept). The `====` separator line createTwoFilesPatch
 * puts first carries nothing, so it is dropped, as is the empty string after the final newline.
 */
export function diffLines(diff: string): string[] {
  const lines = diff.split(/\r\n|\r|\n/);
  if (lines.length > 0 && /^=+$/.test(lines[0] ?? '')) lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => sanitizeTerminalText(line, '\t'));
}

/**
 * Text from outside that the formats show on one line of their own (an identifier, an id, a step's channel, a note):
 * a line break or tab in it is shown as a symbol (`␊`, `␉`), like every other control, so it cannot start a line
 * that reads as wfsync's (`✔ in sync …`, `Plan: …`) or as a command under Actions.
 */
export function oneLine(text: string): string {
  return sanitizeTerminalText(text);
}

/** A message on several lines, each terminal-safe. */
export function messageLines(message: string): string[] {
  return sanitizeTerminalText(message, '\r\n\t').split(/\r\n|\r|\n/);
}

/** `workflows/welcome.yaml:12` when the line of the first change is known. */
export function fileAt(file: string, details: { line?: number }): string {
  return details.line === undefined ? file : `${file}:${details.line}`;
}

/** The note above a diff that is not on the file's lines. */
export const PROJECTION_NOTE = "the compared fields as YAML (line numbers are not the file's)";
