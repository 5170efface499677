/** YAML text → yaml's document tree, built the same way by parseDefinition and by a later `locate`. */
import type { CST, Document } from 'yaml';
import { yamlLib } from './yaml-lib.js';

/**
 * YAML 1.2 core schema only, so every value is JSON (no timestamps, binaries or sets; `yes` stays a string,
 * whatever `%YAML` says). Merge keys (`<<`) are on because shared step defaults are a common use. Duplicate
 * keys are found by our own check, which can name the first occurrence. `silent`: yaml must never print.
 */
export const COMPOSE_OPTIONS = {
  schema: 'core',
  merge: true,
  resolveKnownTags: false,
  uniqueKeys: false,
  strict: true,
  intAsBigInt: false,
  keepSourceTokens: false,
  prettyErrors: false,
  logLevel: 'silent',
} as const;

/** yaml's composer recurses once per level, and near the stack limit V8 can abort the process outright rather
 * than throw, so nesting is bounded while the (non-recursive) parser runs, before anything recursive sees it.
 * The parser stack holds the document and a node being read besides the collections. */
const PARSER_STACK_SLACK = 8;

/** Lexes and parses to CST tokens, stopping as soon as the nesting passes the limit. */
export function parseTokens(text: string, maxDepth: number): { tokens: CST.Token[] } | { tooDeepAt: number } {
  const { Lexer, Parser } = yamlLib();
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  const maxStack = maxDepth + PARSER_STACK_SLACK;
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > maxStack) {
      // stack[0] is the document, stack[n] the collection n levels deep: point at the first one too deep.
      const culprit = parser.stack[maxDepth + 1] ?? parser.stack[parser.stack.length - 1];
      return { tooDeepAt: culprit && 'offset' in culprit ? culprit.offset : parser.offset };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return { tokens };
}

/** The first document, and where a second one starts (a workflow file holds exactly one). */
export function compose(
  tokens: CST.Token[],
  end: number,
): { doc: Document.Parsed; nextDocumentAt: number | undefined } {
  const { Composer } = yamlLib();
  let doc: Document.Parsed | undefined;
  let nextDocumentAt: number | undefined;
  for (const composed of new Composer(COMPOSE_OPTIONS).compose(tokens, true, end)) {
    if (doc === undefined) doc = composed;
    else {
      nextDocumentAt = composed.range[0];
      break;
    }
  }
  // compose(…, forceDoc) always yields a document, even for an empty stream.
  return { doc: doc!, nextDocumentAt };
}
