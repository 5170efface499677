/**
 * The text half of the fast path's proof (see fast-parse.ts): constructs where js-yaml and yaml may read the same
 * text differently, or where yaml reports something js-yaml lets pass, found with one regular expression and one
 * pass over the lines. Conservative on purpose: a false alarm only sends a file down the (correct) slow path.
 * What can only be judged per node (numbers, anchors, a `#` glued to a value, collections as keys) is checked
 * while js-yaml parses.
 */

/** Implicit keys longer than 1024 characters are an error to yaml; a key never spans lines, so no line may. */
const MAX_LINE = 1000;

/**
 * Each alternative is one obstacle; `(?<![^\s[{,])` reads "at the start of a node": after nothing, a blank, a line
 * break or a flow indicator. Control characters (tabs too: indentation rules differ), a lone CR, a BOM and
 * non-ASCII line breaks; `<<` (merge keys: a plain key to js-yaml's core schema); `__proto__`; a backslash not starting one of
 * the common escapes; `!` where a tag can start; `?` (complex key) or `:` (empty key) standing alone at a node's
 * start; a block scalar with an indentation indicator (`|2`: the parsers trim its blank lines differently); a `#`
 * right after `[`, `,`, `:` or a `{` (js-yaml reads a comment there, yaml an error; `{{#if}}` passes: a `{{` in
 * flow is a mapping used as a key, which fast-parse.ts refuses anyway); a
 * directive (`%`) or a document marker at the start of a line (js-yaml takes `---` as one whatever follows).
 */
const OBSTACLES =
  /(?![\n\r])\p{Cc}|\r(?!\n)|[\uFEFF\u2028\u2029]|<<|__proto__|\\[\s\S]?|(?<![^\s[{,:])!|(?<![^\s[{,])[?:](?=[\s,\]}]|$)|(?<!\S)[|>](?:[1-9][-+]?|[-+][1-9])(?!\S)|(?:[[,:]|(?<!\{)\{)#|^(?:%|---|\.\.\.(?=\s|$))/gmu;

/** Escapes both parsers read alike (matched in pairs, so `\\\\` is one escape and not the start of another). */
const COMMON_ESCAPES = new Set(['\\n', '\\t', '\\"', '\\\\', '\\/']);

/** What may come before a leading `---` (blank and comment lines), and after it on its line. */
const BLANK_OR_COMMENT_LINE = /^ *(?:#.*)?\r?$/;
const AFTER_MARKER = /^(?: +(?:#.*)?)?\r?$/;

/**
 * Why the text must take the slow path, or undefined when nothing in it stands in the way. A single `---` before
 * the document (after comments at most, with nothing after it on its line) is fine; any other marker is not.
 */
export function fastPathObstacle(text: string): string | undefined {
  OBSTACLES.lastIndex = 0;
  let markers = 0;
  for (let match = OBSTACLES.exec(text); match !== null; match = OBSTACLES.exec(text)) {
    const found = match[0];
    if (COMMON_ESCAPES.has(found)) continue;
    if (found !== '---') return describe(found);
    const at = match.index;
    markers++;
    if (
      markers > 1 ||
      !text
        .slice(0, at)
        .split('\n')
        .every((line) => BLANK_OR_COMMENT_LINE.test(line))
    )
      return 'a document marker (---) after content';
    const lineEnd = text.indexOf('\n', at);
    if (!AFTER_MARKER.test(text.slice(at + 3, lineEnd === -1 ? text.length : lineEnd)))
      return 'content after ---';
  }
  return longLine(text) ? 'a line over 1,000 characters' : undefined;
}

function describe(found: string): string {
  switch (found) {
    case '<<':
      return 'a merge key (<<)';
    case '__proto__':
      return '__proto__';
    case '!':
      return 'a tag (!)';
    case '?':
      return 'a complex key (?)';
    case ':':
      return 'an empty key (:)';
    case '%':
      return 'a directive (%)';
    case '...':
      return 'a document end marker (...)';
    case '\t':
      return 'a tab';
  }
  if (found.startsWith('\\')) return 'a backslash other than \\n, \\t, \\", \\\\ or \\/';
  if (found.endsWith('#')) return 'a comment right after [ , : or {';
  if (found.length > 1) return `a block scalar indentation indicator (${found})`;
  return `the character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function longLine(text: string): boolean {
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > MAX_LINE) return true;
    if (newline === -1) return false;
    start = newline + 1;
  }
}
