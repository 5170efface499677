/**
 * The output channels: what each place text leaves wfsync must never carry, whatever the text says. Text from
 * outside (definitions, file names, the service's answers, state and lock files) reaches every renderer raw; the
 * CLI passes all of it through one channel per stream (createChannel), and documents through their format's own
 * encoding (jsonText, buildMarkdownDocument). Pure: the CLI decides colour, Actions and the mark.
 *
 * - terminal: C0 controls (but `\n`, `\t`), DEL, C1 controls, bidi embeddings/overrides/isolates and lone surrogates
 *   become visible stand-ins (terminal-text.ts); ESC survives only as one of the exact SGR sequences our own palette
 *   emits (style.ts), and only when colour is on. OSC 8 links, title changes, screen clears, cursor moves: visible.
 * - GitHub Actions log (`GITHUB_ACTIONS=true`, stdout and stderr, every format, after the terminal pass): no line the
 *   runner would read as a workflow command (ACTIONS_RULES below), except our own: a renderer starts each command
 *   line it makes with the per-process `mark` (render options' `commandMark`), which the channel strips. Text from
 *   outside cannot know the mark, so it cannot pass for one of our lines; before a mark is made, no line is ours.
 * - markdown (the PR comment, step summaries): see buildMarkdownDocument.
 * - json: see jsonText.
 */
import { PALETTE_SEQUENCES } from './style.js';
import { sanitizeTerminalText } from './terminal-text.js';

/**
 * The runner's rules (actions/runner, src/Runner.Common/ActionCommand.cs, read for this): it reads its output line
 * by line (StreamReader.ReadLine: `\n`, `\r`, `\r\n`) and tries each line as
 * - v2 (`TryParseV2`): `message.TrimStart()` (.NET whitespace) then `StartsWith("::")`, a second `::` after it,
 *   the command name before the first space, properties split on `,`, the data after the second `::`;
 * - v1 (`TryParse`, the legacy form, tried when v2 fails): `IndexOf("##[")` ANYWHERE in the line, then `]` after it.
 * Only registered names run, but `::stop-commands::TOKEN` registers any name, so every name counts here.
 * Both `StartsWith` and `IndexOf(string)` compare with the current culture: under ICU (the runner's .NET on Linux
 * and macOS) characters the collation ignores (zero-width space and joiners, soft hyphen, most controls, many
 * combining marks) are skipped, so `#\u200b#[` IS `##[` to the runner and a zero-width space in front of `::` does
 * not break it. The rules below therefore allow any run of such characters (IGNORABLE, a superset of ICU's
 * completely ignorable set, checked against Node's ICU in the tests) inside the patterns, and break a match by
 * turning its LAST character into its fullwidth form (`:` → `：`, `[` → `［`): visible, still readable, and not
 * equal to the ASCII one by ordinal or by culture comparison (width differs at tertiary strength, the default).
 * Replacing the last character keeps lengths, and lets a stream do it without rewriting what it already wrote.
 */
const IGNORABLE = String.raw`\p{M}\p{Lm}\p{Cf}\p{Co}\p{Cn}\p{Cs}\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u180a\u1cd3\ufe73`;
const IGN = `[${IGNORABLE}]`;
/** .NET's Char.IsWhiteSpace, which TrimStart removes (line breaks end the line before it matters). */
const LEADING = `[\\t\\v\\f \\u0085\\p{Z}${IGNORABLE}]*`;

/**
 * The Actions rules' patterns, built on first use: V8 expands each `\p{…}` class as it constructs the pattern, ~4 ms
 * of every start-up for four patterns that only a run under Actions uses.
 */
let actionsPatterns:
  | { v2Start: RegExp; v1Anywhere: RegExp; openStart: RegExp; openHashes: RegExp }
  | undefined;
function patterns() {
  actionsPatterns ??= {
    /** v2: `::` at a line start. Group 1 is everything before the second `:`. */
    v2Start: new RegExp(`^(${LEADING}:${IGN}*):`, 'u'),
    /** v1: `##[` anywhere. Group 1 is everything before the `[`. */
    v1Anywhere: new RegExp(`(#${IGN}*#${IGN}*)\\[`, 'gu'),
    /** A line start that a later write could still turn into `::` (only spaces, ignorables and maybe one `:`). */
    openStart: new RegExp(`^${LEADING}(?::${IGN}*)?$`, 'u'),
    /** The end of a line that a later write could still turn into `##[`. */
    openHashes: new RegExp(`(?:#${IGN}*){1,2}$`, 'u'),
  };
  return actionsPatterns;
}

/** The replacements: the pattern's last character in fullwidth. */
const NOT_COLON = '\uff1a';
const NOT_BRACKET = '\uff3b';

export interface ChannelOptions {
  /** Colour is on for this stream: our palette's SGR sequences pass. */
  color: boolean;
  /** Running under GitHub Actions (`GITHUB_ACTIONS=true`): no line may read as a workflow command. */
  actions: boolean;
  /**
   * The per-process mark our renderers put in front of their own command lines (never empty when given), or how to
   * read it when it is made on first use: asked at every write, and while it answers undefined (no mark made yet)
   * no line is ours.
   */
  mark?: string | (() => string | undefined);
}

/** The terminal pass: unsafe characters visible; ESC only as our palette's SGR, only with `color`. */
export function sanitizeTerminal(text: string, color: boolean): string {
  if (!color || !text.includes('\x1b')) return sanitizeTerminalText(text, '\n\t');
  let out = '';
  let last = 0;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences our palette writes
  for (const match of text.matchAll(/\x1b\[\d{1,2}m/g)) {
    if (!PALETTE_SEQUENCES.has(match[0])) continue;
    out += sanitizeTerminalText(text.slice(last, match.index), '\n\t') + match[0];
    last = match.index + match[0].length;
  }
  return out + sanitizeTerminalText(text.slice(last), '\n\t');
}

/** One line (or the rest of one) made safe for the runner; `context` is what the line already holds. */
function neutralizeLine(context: string, text: string, own: boolean): string {
  const whole = context + text;
  const { v1Anywhere, v2Start } = patterns();
  let safe = whole.replace(v1Anywhere, `$1${NOT_BRACKET}`);
  if (!own) safe = safe.replace(v2Start, `$1${NOT_COLON}`);
  return safe.slice(context.length);
}

/** What the rules need to know of a line written so far: all of it while it could still start `::`, else its end. */
function compactLine(line: string): string {
  const { openStart, openHashes } = patterns();
  if (openStart.test(line)) return line;
  return `x${openHashes.exec(line)?.[0] ?? ''}`;
}

/**
 * A stream's channel: each chunk written goes through it, in order. It remembers the line a chunk leaves open, so
 * a pattern split over two writes is caught as well as one inside a write (only a mark split over two writes is
 * not recognised: that line is then treated as text from outside, which is the safe side).
 */
export function createChannel(options: ChannelOptions): (chunk: string) => string {
  const { color, actions } = options;
  const given = options.mark;
  const markOf = typeof given === 'function' ? () => given() ?? '' : () => given ?? '';
  let mark = '';
  let context = '';
  let fresh = true;
  let own = false;
  const part = (text: string, last: boolean): string => {
    let rest = text;
    if (fresh && mark !== '' && rest.startsWith(mark)) {
      own = true;
      rest = rest.slice(mark.length);
    }
    if (text !== '') fresh = false;
    if (!actions) return rest;
    const safe = neutralizeLine(context, rest, own);
    if (last) context = compactLine(context + safe);
    return safe;
  };
  return (chunk) => {
    // Read before each write: a mark made since the last one (by the renderer of this text) counts from here on.
    mark = markOf();
    const text = sanitizeTerminal(chunk, color);
    if (!actions && (mark === '' || !text.includes(mark))) {
      if (text !== '') fresh = text.endsWith('\n');
      return text;
    }
    const lines = text.split('\n');
    let out = part(lines[0] ?? '', lines.length === 1);
    for (let i = 1; i < lines.length; i++) {
      context = '';
      fresh = true;
      own = false;
      out += `\n${part(lines[i] ?? '', i === lines.length - 1)}`;
    }
    return out;
  };
}

/** A whole text through a fresh channel (a file, a test). */
export function sanitizeOutput(text: string, options: ChannelOptions): string {
  return createChannel(options)(text);
}

/**
 * Characters JSON.stringify leaves raw that a terminal or a log would act on: DEL, C1 controls, bidi marks,
 * embeddings, overrides and isolates, the Unicode line and paragraph separators. They only ever occur inside JSON
 * strings, where `\uXXXX` means the same character.
 */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** `##[` with ignorables anywhere, made on first use (jsonText, escapeXmlCommands): see patterns(). */
let jsonV1: RegExp | undefined;
function jsonV1Pattern(): RegExp {
  jsonV1 ??= new RegExp(`(#${IGN}*)#(${IGN}*\\[)`, 'gu');
  return jsonV1;
}

/**
 * The json channel: JSON.stringify (2-space indent), with what it leaves raw written as `\uXXXX` escapes, and the
 * `#` of every `##[` as `\u0023` (`##[` occurs only inside strings). The document parses to the same value, and is
 * safe in a terminal and in an Actions log (lines of indented JSON never start with `:`).
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text
    .replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(jsonV1Pattern(), '$1\\u0023$2');
}

/** XML text: `:` starting a line and `#` of `##[` as character references (what escapeXmlText applies). */
export function escapeXmlCommands(text: string): string {
  return text.replace(jsonV1Pattern(), '$1&#35;$2').replace(new RegExp(`^(${LEADING}):`, 'gmu'), '$1&#58;');
}

/**
 * GitHub mentions need `@` after a non-word character and before a letter or digit (`@user`, `@org/team`); a zero
 * width space after the `@` (what GitHub-facing bots do) leaves the text as it reads and pings nobody. Issue
 * references (`#12`, `owner/repo#12`, `GH-12`) get the same treatment: a name from a branch must not link (and
 * leave a back-reference in) an issue on every push. Commit SHAs still link; they notify nobody.
 */
const MENTION = /(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])/g;
// `&#60;` and the like are our own escapes, not references.
const ISSUE_REFERENCE = /((?<!&)#|\bGH-)(?=\d)/gi;
/** `<!--` starts an HTML comment, and our markers are HTML comments: none may come from the body. */
const COMMENT_OPEN = /<!--/g;
const ZWSP = '\u200b';

/**
 * The markdown channel for text that follows our markers: every `<!--`, mention and issue reference broken by a zero
 * width space, in text, code spans and fenced diffs alike (a recipe finds its comment by the marker as a substring of
 * the raw source). The renderers escape the rest (HTML, tables, fences: markdown-text.ts); this pass holds whatever
 * they quote verbatim. It only ever adds characters, inside one line, so it can run on the parts of a document.
 */
export function neutralizeMarkdown(body: string): string {
  return body
    .replace(COMMENT_OPEN, `<${ZWSP}!--`)
    .replace(MENTION, `@${ZWSP}`)
    .replace(ISSUE_REFERENCE, `$1${ZWSP}`);
}

/** A markdown document: `markers` (our hidden `<!-- wfsync-… -->` lines) first, then the neutralised body. */
export function buildMarkdownDocument(markers: readonly string[], body: string): string {
  const safe = neutralizeMarkdown(body);
  return markers.length === 0 ? safe : `${markers.join('\n')}\n${safe}`;
}
