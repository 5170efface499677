import { describe, expect, it } from 'vitest';
import { locateInString } from '../../../../src/validate/rules/string-span.js';
import { loadYaml, yaml } from '../../../helpers/load-yaml.js';

/** Position of `length` characters at the first `needle` in the value of `content`. */
function at(text: string, needle = '{{', length = 2) {
  const definition = loadYaml(text);
  const value = (definition.value as { content: string }).content;
  const offset = value.indexOf(needle);
  expect(offset).toBeGreaterThanOrEqual(0);
  return locateInString(definition, '/content', offset, length);
}

describe('locateInString', () => {
  it('plain scalar: start column plus offset', () => {
    expect(at('content: Hello {{name}}\n')).toEqual({ line: 1, column: 16, endLine: 1, endColumn: 18 });
  });

  it('double-quoted scalar: skips the quote and escapes', () => {
    expect(at('content: "Say \\"hi\\" {{x"\n')).toMatchObject({ line: 1, column: 22 });
  });

  it("single-quoted scalar: skips the quote and doubled ''", () => {
    expect(at("content: 'It''s {{x'\n")).toMatchObject({ line: 1, column: 17 });
  });

  it('literal block: content start line plus line in string, indentation plus column', () => {
    const text = yaml`
      content: |
        Hello
          {{name
    `;
    expect(at(text)).toEqual({ line: 3, column: 5, endLine: 3, endColumn: 7 });
  });

  it('folded block: folded line breaks still map to their source lines', () => {
    const text = yaml`
      content: >-
        Hello
        there {{x
    `;
    expect(at(text)).toMatchObject({ line: 3, column: 9 });
  });

  it('block header comment is not content', () => {
    const text = yaml`
      content: |  # {{ not here
        a {{b
    `;
    expect(at(text)).toMatchObject({ line: 2, column: 5 });
  });

  it('multi-line plain scalar', () => {
    const text = yaml`
      content: Hello
        there {{x
    `;
    expect(at(text)).toMatchObject({ line: 2, column: 9 });
  });

  it('flow mapping and CRLF line endings', () => {
    expect(at('a: 1\r\ncontent: "a {{b"\r\n')).toMatchObject({ line: 2, column: 13 });
    const definition = loadYaml('steps: [{content: "a {{b"}]\n');
    expect(locateInString(definition, '/steps/0/content', 2)).toMatchObject({ line: 1, column: 22 });
  });

  it('an offset past the end points just after the last character', () => {
    const definition = loadYaml('content: Hi {{x\n');
    expect(locateInString(definition, '/content', 7)).toEqual({
      line: 1,
      column: 16,
      endLine: 1,
      endColumn: 17,
    });
  });

  it('an alias falls back to the alias itself', () => {
    const definition = loadYaml('base: &b Hi {{x\ncontent: *b\n');
    expect(locateInString(definition, '/content', 3)).toMatchObject({ line: 2, column: 10 });
  });

  it('a value merged in from an anchor (`<<: *base`) falls back to the merge alias', () => {
    const definition = loadYaml('base: &b {content: "Hi {{x"}\nitem:\n  <<: *b\n');
    expect(locateInString(definition, '/item/content', 3)).toMatchObject({ line: 3, column: 7 });
  });

  it('an anchored scalar: the anchor is not content', () => {
    expect(at('content: &a Hi {{x\n')).toMatchObject({ line: 1, column: 16 });
  });
});
