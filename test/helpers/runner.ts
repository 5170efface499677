/**
 * How the GitHub Actions runner reads a log line, written from its source (actions/runner,
 * src/Runner.Common/ActionCommand.cs, `TryParseV2` then `TryParse`; src/Runner.Worker/ActionCommandManager.cs):
 *
 * - lines are what StreamReader.ReadLine returns: split at `\r\n`, `\r` and `\n`;
 * - v2: `line.TrimStart()` (.NET whitespace) `.StartsWith("::")`, then a second `::` after those two characters;
 * - v1: `line.IndexOf("##[")` anywhere, then a `]` after it (IndexOf(char): ordinal);
 * - the command name (up to the first space) must be registered, but `::stop-commands::TOKEN` registers any token,
 *   so any name counts here;
 * - `StartsWith(string)` and `IndexOf(string)` compare with the current culture: under ICU, characters the collation
 *   ignores are skipped. Which those are is asked of ICU itself (Node's Intl.Collator), not of the code under test.
 */

const collator = new Intl.Collator('und');
const ignorableCache = new Map<string, boolean>();

/** ICU skips `ch` when it compares (a completely ignorable character). */
export function isCollationIgnorable(ch: string): boolean {
  let known = ignorableCache.get(ch);
  if (known === undefined) {
    known = collator.compare(`a${ch}b`, 'ab') === 0;
    ignorableCache.set(ch, known);
  }
  return known;
}

/** .NET's Char.IsWhiteSpace. */
function isDotnetWhiteSpace(ch: string): boolean {
  return /^[\t\n\v\f\r \u0085\p{Z}]$/u.test(ch);
}

/** The index after `pattern` when `text` holds it at `from` (skipping ignorable characters), else -1. */
function matchAt(chars: readonly string[], from: number, pattern: string): number {
  let i = from;
  for (const wanted of pattern) {
    while (i < chars.length && chars[i] !== wanted && isCollationIgnorable(chars[i] as string)) i++;
    if (chars[i] !== wanted) return -1;
    i++;
  }
  return i;
}

/** First index at or after `from` where `pattern` starts (culture-sensitive IndexOf), else -1. */
function indexOf(chars: readonly string[], pattern: string, from: number): number {
  for (let i = from; i < chars.length; i++) if (matchAt(chars, i, pattern) !== -1) return i;
  return -1;
}

/** Whether the runner would run this one line (no line breaks) as a workflow command. */
export function wouldRunnerParse(line: string): boolean {
  const chars = [...line];
  // v2
  let start = 0;
  while (start < chars.length && isDotnetWhiteSpace(chars[start] as string)) start++;
  let head = start;
  while (head < chars.length && isCollationIgnorable(chars[head] as string)) head++;
  const afterKey = matchAt(chars, head, '::');
  if (afterKey !== -1 && indexOf(chars, '::', afterKey) !== -1) return true;
  // v1
  const prefix = indexOf(chars, '##[', 0);
  return prefix !== -1 && chars.indexOf(']', prefix) !== -1;
}

/** The lines of `text` as the runner reads them. */
export function runnerLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The lines of `text` the runner would run as commands. */
export function runnerCommands(text: string): string[] {
  return runnerLines(text).filter(wouldRunnerParse);
}
