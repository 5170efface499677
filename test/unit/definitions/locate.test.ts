import { describe, expect, it } from 'vitest';
import type { LoadedDefinition } from '../../../src/definitions/types.js';
import type { Span } from '../../../src/diagnostic.js';
import { load } from './helpers.js';

const TEXT = `name: Welcome   # trailing comment
steps:
  - name: In-app
    template:
      type: in_app
      content: |
        Hello {{name}}
        second line

  - &sms
    name: SMS
    template: {type: sms, content: "Hi"}
  - *sms
  - <<: *sms
    name: SMS again
  - <<: {shouldStopOnFail: true}
    name: Inline merge
  - ~
tags: [a, "b/c", d]
"we~ird/key": 1
empty:
? explicit
data: {}
`;

/** The text a span covers (first line only when it spans several). */
function covered(definition: LoadedDefinition, span: Span): string {
  const line = definition.text.split('\n')[span.line - 1] ?? '';
  return span.endLine === span.line
    ? line.slice(span.column - 1, span.endColumn - 1)
    : `${line.slice(span.column - 1)}…`;
}

describe('LoadedDefinition.locate', () => {
  const definition = load(TEXT);
  const at = (pointer: string, target?: 'value' | 'key') =>
    covered(definition, definition.locate(pointer, target));

  it('finds values and keys of mappings, without trailing comments', () => {
    expect(definition.locate('/name')).toEqual({ line: 1, column: 7, endLine: 1, endColumn: 14 });
    expect(definition.locate('/name', 'key')).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 5 });
    expect(at('/steps', 'key')).toBe('steps');
  });

  it('finds array items and nested values', () => {
    expect(at('/steps/0')).toBe('name: In-app…');
    expect(at('/steps/0/template/type')).toBe('in_app');
    expect(at('/tags/1')).toBe('"b/c"');
    expect(at('/tags/2')).toBe('d');
  });

  it('spans a block scalar from its indicator to its last character, not the blank line after', () => {
    expect(definition.locate('/steps/0/template/content')).toEqual({
      line: 6,
      column: 16,
      endLine: 8,
      endColumn: 20,
    });
  });

  it('finds keys and values inside flow collections', () => {
    expect(at('/steps/1/template/type')).toBe('sms');
    expect(at('/steps/1/template/content', 'key')).toBe('content');
  });

  it('decodes ~0 and ~1 in pointer segments', () => {
    expect(at('/we~0ird~1key', 'key')).toBe('"we~ird/key"');
    expect(at('/we~0ird~1key')).toBe('1');
  });

  it('points at the alias for anything reached through it', () => {
    expect(at('/steps/2')).toBe('*sms');
    expect(at('/steps/2/template/type')).toBe('*sms');
    expect(at('/steps/2/name', 'key')).toBe('*sms');
  });

  it('follows merge keys: own keys first, then the alias or inline mapping that brings a key in', () => {
    expect(at('/steps/3/name')).toBe('SMS again');
    expect(at('/steps/3/template')).toBe('*sms');
    expect(at('/steps/4/shouldStopOnFail')).toBe('true');
    expect(at('/steps/4/shouldStopOnFail', 'key')).toBe('shouldStopOnFail');
  });

  it('shows the key of a value left empty, and the item of an explicit null', () => {
    expect(at('/empty')).toBe('empty');
    expect(at('/explicit')).toBe('explicit');
    expect(at('/steps/5')).toBe('~');
  });

  it('answers a missing property with the mapping key, or the mapping first line when it has no key', () => {
    expect(at('/data/missing')).toBe('data');
    expect(at('/steps/1/template/missing', 'key')).toBe('template');
    expect(at('/steps/0/missing')).toBe('name: In-app');
    expect(at('/missing')).toBe('name: Welcome   # trailing comment');
  });

  it('answers a missing or malformed index with the sequence key', () => {
    for (const pointer of ['/steps/6', '/steps/01', '/steps/-', '/steps/1e0', '/steps/-1'])
      expect(at(pointer)).toBe('steps');
  });

  it('matches keys written as numbers or booleans by their text', () => {
    const numeric = load('name: x\ndata:\n  1.0: one\n  true: yes\n');
    expect(covered(numeric, numeric.locate('/data/1.0'))).toBe('one');
    expect(covered(numeric, numeric.locate('/data/true', 'key'))).toBe('true');
    expect(covered(numeric, numeric.locate('/data/1'))).toBe('data');
  });

  it('answers a path below a scalar with the scalar', () => {
    expect(at('/name/deeper/still')).toBe('Welcome');
  });

  it('answers the empty pointer with the whole document, and a malformed pointer with its first line', () => {
    expect(definition.locate('')).toEqual({ line: 1, column: 1, endLine: 23, endColumn: 9 });
    expect(at('', 'key')).toBe('name: Welcome   # trailing comment');
    expect(at('name')).toBe('name: Welcome   # trailing comment');
  });

  it('never throws, whatever it is given', () => {
    const odd = [
      undefined,
      null,
      42,
      {},
      '/\u0000',
      '/'.repeat(10_000),
      '/~',
      '/~2',
      `/${'a/'.repeat(5000)}`,
    ];
    for (const pointer of odd) expect(() => definition.locate(pointer as unknown as string)).not.toThrow();
    expect(() => definition.locate('/name', 'nonsense' as 'key')).not.toThrow();
  });
});
