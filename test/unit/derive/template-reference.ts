// The reference the fast template parser is held to: Handlebars' own AST, seen through the fields the walkers read.
import { parseWithoutProcessing } from 'handlebars/dist/cjs/handlebars/compiler/base.js';
import { expect } from 'vitest';
import { fastParseTemplate } from '../../../src/derive/fast-template.js';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { lineStartsOf, setFastTemplateParsing } from '../../../src/derive/parse-template.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';

// Every field of HbsNode/HbsProgram (what handlebars.ts and server-scan.ts may read), plus `key` and `value` of a hash
// pair (a content's `value` is read by no one).
const FIELDS = [
  'type',
  'path',
  'params',
  'hash',
  'pairs',
  'key',
  'value',
  'program',
  'inverse',
  'name',
  'data',
  'depth',
  'parts',
  'original',
  'body',
  'blockParams',
] as const;

/**
 * A plain copy of `node` with only those fields and `loc.start`; a missing field and an undefined one read the same.
 * A Program's own location is left out: no walker asks for it (the fast parser gives none).
 */
export function project(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(project);
  if (typeof node !== 'object' || node === null) return node;
  const source = node as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (field === 'value' && source.type !== 'HashPair') continue;
    if (source[field] !== undefined) copy[field] = project(source[field]);
  }
  const start = (source.loc as { start?: { line: unknown; column: unknown } } | undefined)?.start;
  if (start !== undefined && source.type !== 'Program')
    copy.start = { line: start.line, column: start.column };
  return copy;
}

/**
 * When the fast parser answers for `source`: Handlebars parses it too, to the same projection, and the line starts
 * it reports are those offsets are computed from. Returns whether it answered.
 */
export function fastAgreesWithHandlebars(source: string): boolean {
  const fast = fastParseTemplate(source);
  if (fast === undefined) return false;
  let reference: unknown;
  try {
    reference = parseWithoutProcessing(source);
  } catch (error) {
    expect.fail(`the fast parser answered for ${JSON.stringify(source)}, which Handlebars rejects: ${error}`);
  }
  expect(project(fast.program), JSON.stringify(source)).toStrictEqual(project(reference));
  expect(fast.lineStarts).toStrictEqual(lineStartsOf(source));
  return true;
}

/** Both walkers give the same usages, errors and offsets with the fast path on and off. */
export function walkersAgree(source: string): void {
  try {
    setFastTemplateParsing(true);
    const fast = [scanTemplate(source), scanTemplateAsServer(source)];
    setFastTemplateParsing(false);
    const reference = [scanTemplate(source), scanTemplateAsServer(source)];
    expect(fast, JSON.stringify(source)).toStrictEqual(reference);
  } finally {
    setFastTemplateParsing(true);
  }
}
