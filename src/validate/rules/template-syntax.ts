import { scanTemplate } from '../../derive/handlebars.js';
import { MAX_DEFINITION_DEPTH } from '../../json.js';
import { triggerOf } from './derived.js';
import { locateInString } from './string-span.js';
import type { Rule } from './types.js';
import { displayPath, valueAt } from './walk.js';

// Handlebars' lexer token names, as the user wrote them.
const TOKENS: Record<string, string> = {
  EOF: 'end of text',
  CLOSE: '`}}`',
  CLOSE_UNESCAPED: '`}}}`',
  CLOSE_RAW_BLOCK: '`}}}}`',
  OPEN: '`{{`',
  OPEN_BLOCK: '`{{#`',
  OPEN_ENDBLOCK: '`{{/`',
  OPEN_INVERSE: '`{{^`',
  OPEN_UNESCAPED: '`{{{`',
  OPEN_PARTIAL: '`{{>`',
  OPEN_SEXPR: '`(`',
  CLOSE_SEXPR: '`)`',
  ID: 'a name',
  SEP: '`.`',
  EQUALS: '`=`',
};

/**
 * A Handlebars error as a short clause: what came instead of what was expected, or the block that closes the wrong
 * one; other messages lose their line numbers (they count lines of the string, not of the file).
 */
export function summarizeParseError(message: string): string {
  const got = /got '([A-Z_]+)'/.exec(message);
  if (got) {
    // The lexer gives up on what it cannot tokenize: usually a mustache left open or a stray character inside one.
    if (got[1] === 'INVALID') return 'an unclosed or malformed `{{…}}`';
    const found = TOKENS[got[1]!] ?? `\`${got[1]}\``;
    const expected = [...message.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!).slice(0, -1);
    const only = expected.length === 1 ? TOKENS[expected[0]!] : undefined;
    return only ? `expected ${only}, got ${found}` : `unexpected ${found}`;
  }
  const mismatch = /^(\S+) doesn't match (\S+)/.exec(message);
  if (mismatch) return `\`{{#${mismatch[1]}}}\` is closed by \`{{/${mismatch[2]}}}\``;
  const first = message.split('\n').find((line) => line.trim() !== '') ?? message;
  return first
    .replace(/^Parse error on line \d+:?\s*/, 'parse error')
    .replace(/\s+-\s+\d+:\d+\s*$/, '')
    .trim();
}

export const templateSyntax: Rule = {
  code: 'template-syntax',
  defaultSeverity: 'error',
  description:
    'template strings must be valid Handlebars (the service answers 400 "Failed to extract variables")',
  check(ctx) {
    for (const error of triggerOf(ctx.workflow).errors) {
      // The service's extractor also fails on some valid Handlebars (a number where it expects a name).
      const text = valueAt(ctx.definition.value, error.pointer);
      const scanned = typeof text === 'string' ? scanTemplate(text).error : undefined;
      const span = locateInString(ctx.definition, error.pointer, error.offset);
      if (scanned?.tooDeep) {
        ctx.report(
          error.pointer,
          `${displayPath(error.pointer)} nests Handlebars deeper than ${MAX_DEFINITION_DEPTH} levels (blocks, ` +
            '`{{else if}}` chains and sub-expressions), so wfsync does not read it: flatten the template.',
          { span },
        );
        continue;
      }
      const invalid = typeof text !== 'string' || scanned !== undefined;
      const problem = invalid
        ? 'is not valid Handlebars'
        : "cannot be read by the service's variable extraction";
      ctx.report(
        error.pointer,
        `${displayPath(error.pointer)} ${problem} (${summarizeParseError(error.message)}), so the service ` +
          `would answer 400 "Failed to extract variables": fix the template.`,
        { span },
      );
    }
  },
};
