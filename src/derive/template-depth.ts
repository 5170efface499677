/**
 * How deep a template nests, found from Handlebars' own lexer before its parser runs: the parser takes time that
 * grows with the cube of the nesting (4,000 nested `{{#if}}` take 20 s), and every walker of its AST (handlebars.ts,
 * server-scan.ts) recurses once per level. A template nested deeper than MAX_DEFINITION_DEPTH is therefore never
 * parsed. The lexer itself is linear, and the scan stops at the first token past the limit.
 */

/** The part of the Jison lexer this needs (handlebars-compiler.d.ts). */
export interface TemplateLexer {
  setInput(input: string, yy: object): unknown;
  lex(): unknown;
  yylloc?: { first_line?: unknown; first_column?: unknown };
}

/** What each token does to the nesting of the AST the parser would build. */
const EFFECT: Readonly<Record<string, 'open' | 'chain' | 'close' | 'sub' | 'end-sub'>> = {
  // A block (`{{#x}}`, `{{^x}}`, `{{#> partial}}`, `{{#*inline}}`, `{{{{raw}}}}`) holds a program.
  OPEN_BLOCK: 'open',
  OPEN_INVERSE: 'open',
  OPEN_PARTIAL_BLOCK: 'open',
  OPEN_RAW_BLOCK: 'open',
  // `{{else if y}}` nests a block in the inverse of the one before, closed together by the block's `{{/x}}`.
  OPEN_INVERSE_CHAIN: 'chain',
  OPEN_ENDBLOCK: 'close',
  END_RAW_BLOCK: 'close',
  // A sub-expression `(helper a)` in a mustache, a block's arguments or a hash value.
  OPEN_SEXPR: 'sub',
  CLOSE_SEXPR: 'end-sub',
};

/**
 * Where (the lexer's line and 0-based column) the template first nests deeper than `maxDepth`, or undefined when it
 * never does. A lexical error ends the scan with undefined: the parser then reports it. `terminals` maps the lexer's
 * token numbers to their names (the parser's `terminals_`).
 */
export function findTooDeepToken(
  source: string,
  lexer: TemplateLexer,
  terminals: Readonly<Record<number, string>>,
  maxDepth: number,
): { line: unknown; column: unknown } | undefined {
  if (!mayNestDeeper(source, maxDepth)) return undefined;
  // Per open block, how many levels it holds (1, plus one per `{{else if}}` of its chain); `levels` is their sum.
  // Counts go wrong only after a token the parser refuses, and the parser stops at the first one it refuses.
  const blocks: number[] = [];
  let levels = 0;
  let subs = 0;
  try {
    lexer.setInput(source, {});
    for (let token = lexer.lex(); ; token = lexer.lex()) {
      // Mostly numbers; a few rules return their token's name (`END_RAW_BLOCK`, `INVALID`).
      const name = typeof token === 'number' ? terminals[token] : token;
      if (typeof name !== 'string' || name === 'EOF' || name === 'INVALID') return undefined;
      const effect = EFFECT[name];
      if (effect === undefined) continue;
      if (effect === 'close') levels -= blocks.pop() ?? 0;
      else if (effect === 'end-sub') subs = Math.max(0, subs - 1);
      else if (effect === 'sub') subs++;
      else if (effect === 'open') {
        blocks.push(1);
        levels++;
      } else if (blocks.length > 0) {
        blocks[blocks.length - 1]!++;
        levels++;
      }
      if (levels + subs > maxDepth) {
        return { line: lexer.yylloc?.first_line, column: lexer.yylloc?.first_column };
      }
    }
  } catch {
    return undefined;
  }
}

/**
 * Whether the template holds more than `maxDepth` of the characters a level opens with: every block, chain and raw
 * block token starts with its own `{{`, every sub-expression with `(`. Most templates hold fewer, and skip the lexer.
 */
function mayNestDeeper(source: string, maxDepth: number): boolean {
  let count = 0;
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i + 2))
    if (++count > maxDepth) return true;
  for (let i = source.indexOf('('); i !== -1; i = source.indexOf('(', i + 1))
    if (++count > maxDepth) return true;
  return false;
}
