/** Small text pieces the plan formats share: values, field changes, diff lines. All output is terminal-safe. */
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

/** The path a user reads (`steps[0].template.content`), safe on one line. */
export function formatPath(change: FieldChange): string {
  return sanitizeTerminalText(change.path === '' ? '(whole workflow)' : change.path);
}

/** The two sides of a change, service first (as in the diff): `false`, `true`. */
export function formatChangeValues(change: FieldChange): { actual: string; desired: string } {
  return {
    actual: change.kind === 'only-in-file' ? NOT_SET : formatValue(change.actual),
    desired: change.kind === 'only-on-service' ? NOT_SET : formatValue(change.desired),
  };
}

/** `critical: false → true` (service → file). */
export function formatChange(change: FieldChange): string {
  const { actual, desired } = formatChangeValues(change);
  return `${formatPath(change)}: ${actual} → ${desired}`;
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

/** A message on several lines, each terminal-safe. */
export function messageLines(message: string): string[] {
  return sanitizeTerminalText(message, '\r\n\t').split(/\r\n|\r|\n/);
}
