// Types for the one Handlebars module derive imports: the parser alone (see parse-template.ts for why).
declare module 'handlebars/dist/cjs/handlebars/compiler/base.js' {
  /** Parses a template into Handlebars' AST without the whitespace-control pass; throws on invalid input. */
  export function parseWithoutProcessing(input: string): unknown;
  /** The shared Jison parser; after a failed parse its lexer still holds the offending token's location. */
  export const parser: {
    lexer: {
      yylloc?: { first_line?: unknown; first_column?: unknown };
      _input?: unknown;
      /** Restarts the lexer on `input` (template-depth.ts scans the tokens before the parser runs). */
      setInput(input: string, yy: object): unknown;
      /** The next token's number (a name in `terminals_`), or a string for text it cannot tokenize. */
      lex(): unknown;
    };
    terminals_: Record<number, string>;
  };
}
