import { describe, expect, it } from 'vitest';
import { Document, parseDocument, Scalar, type YAMLMap } from 'yaml';
import { detectStyle, type FileStyle, mergeLines, printDocument } from '../../../src/pull/merge-text.js';

const lines = (...text: string[]) => text.join('\n');
const NO_WRAP = { lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER };

describe('detectStyle: the file layout the printer can follow', () => {
  it.each<[string, string, Partial<FileStyle['options']>, FileStyle['padding']]>([
    ['nothing nested', 'a: 1\n', {}, {}],
    ['2-space maps', 'a:\n  b: 1\n', { indent: 2 }, {}],
    ['4-space maps', 'a:\n    b: 1\n', { indent: 4 }, {}],
    ['the first nested map decides', 'a:\n    b:\n      c: 1\n', { indent: 4 }, {}],
    [
      'nested maps under a key of a sequence item',
      'a:\n  - b:\n       c: 1\n',
      { indent: 3, indentSeq: true },
      {},
    ],
    ['dashes indented under their key', 'a:\n  - x\n', { indentSeq: true }, {}],
    ['dashes level with their key', 'a:\n- x\n', { indentSeq: false }, {}],
    ['a dash alone on its line, indented', 'a:\n  -\n    x\n', { indentSeq: true }, {}],
    ['a map under an explicit key, level with it, is no indent', '? a\n:\n  b: 1\n', {}, {}],
    ['the first sequence decides', 'a:\n- x\nb:\n  - y\n', { indentSeq: false }, {}],
    ['a flow map is not an indent', 'a: {b: 1}\nc:\n   d: 1\n', { indent: 3 }, { map: false }],
    ['a flow sequence is not a dash indent', 'a: [x]\nb:\n- y\n', { indentSeq: false }, { seq: false }],
    ['a block map first in a sequence is no key indent', '- a:\n    b: 1\n', { indent: 2 }, {}],
    ['padded braces', 'a: { b: 1 }\n', {}, { map: true }],
    ['unpadded brackets', 'a: [x]\n', {}, { seq: false }],
    ['padded brackets beside unpadded braces', 'a: [ x ]\nb: {c: 1}\n', {}, { seq: true, map: false }],
    [
      'the first flow collection of each kind decides',
      'a: [x]\nb: [ y ]\nc: { d: 1 }\ne: {f: 1}\n',
      {},
      { seq: false, map: true },
    ],
    ['empty flow collections say nothing', 'a: []\nb: {}\nc: [ x ]\n', {}, { seq: true }],
  ])('%s', (_what, text, options, padding) => {
    expect(detectStyle(parseDocument(text), text)).toEqual({ options: { ...NO_WRAP, ...options }, padding });
  });

  it('nodes without source positions (built, not parsed) say nothing', () => {
    const doc = new Document({ a: { b: 1 }, c: ['x'], d: ['y'] });
    const seq = doc.get('d', true) as { flow?: boolean };
    seq.flow = true;
    expect(detectStyle(doc, '')).toEqual({ options: NO_WRAP, padding: {} });
  });

  it('a parsed collection under a built key says nothing', () => {
    const text = 'a:\n  - x\nb:\n    c: 1\n';
    const doc = parseDocument(text);
    for (const pair of (doc.contents as YAMLMap).items) pair.key = new Scalar((pair.key as Scalar).value);
    expect(detectStyle(doc, text)).toEqual({ options: NO_WRAP, padding: {} });
  });
});

describe('printDocument: each line padded the way the file pads its first flow collection', () => {
  const text = lines('a: {x: 1}', 'b: [1, 2]', 'c: [{x: 1}]', 'd: {x: [1]}', 'e: []', '');
  const print = (padding: FileStyle['padding']) =>
    printDocument(parseDocument(text), { options: NO_WRAP, padding });

  it.each<[string, FileStyle['padding'], string]>([
    [
      'padded when the file says nothing',
      {},
      lines('a: { x: 1 }', 'b: [ 1, 2 ]', 'c: [ { x: 1 } ]', 'd: { x: [ 1 ] }', 'e: []', ''),
    ],
    ['nothing padded', { map: false, seq: false }, text],
    [
      'maps padded, sequences not',
      { map: true, seq: false },
      lines('a: { x: 1 }', 'b: [1, 2]', 'c: [{x: 1}]', 'd: { x: [ 1 ] }', 'e: []', ''),
    ],
    [
      'sequences padded, maps not',
      { map: false, seq: true },
      lines('a: {x: 1}', 'b: [ 1, 2 ]', 'c: [ { x: 1 } ]', 'd: {x: [1]}', 'e: []', ''),
    ],
    ['only unpadded maps known: sequences follow them', { map: false }, text],
    ['only unpadded sequences known: maps follow them', { seq: false }, text],
    [
      'only padded maps known: sequences follow them',
      { map: true },
      lines('a: { x: 1 }', 'b: [ 1, 2 ]', 'c: [ { x: 1 } ]', 'd: { x: [ 1 ] }', 'e: []', ''),
    ],
    [
      'only padded sequences known: maps follow them',
      { seq: true },
      lines('a: { x: 1 }', 'b: [ 1, 2 ]', 'c: [ { x: 1 } ]', 'd: { x: [ 1 ] }', 'e: []', ''),
    ],
  ])('%s', (_what, padding, expected) => {
    expect(print(padding)).toBe(expected);
  });

  it('keeps the printer options it is given', () => {
    const doc = parseDocument('a:\n  b: [x]\n');
    expect(printDocument(doc, { options: { indent: 4 }, padding: { seq: false } })).toBe('a:\n    b: [x]\n');
  });
});

describe('mergeLines: the file where only yaml printed it differently, the edit where the document changed', () => {
  it.each<[string, string, string, string, string]>([
    ['nothing differs', 'a\nb', 'a\nb', 'a\nb', 'a\nb'],
    ['only the printing differs: the file stays', 'a\n[x]\nc', 'a\n[ x ]\nc', 'a\n[ x ]\nc', 'a\n[x]\nc'],
    ['only the edit differs', 'a\nb\nc', 'a\nb\nc', 'a\nB\nc', 'a\nB\nc'],
    ['file and edit apart', 'A\nb\nc', 'a\nb\nc', 'a\nb\nC', 'A\nb\nC'],
    ['edit before the file difference', 'a\nb\nC', 'a\nb\nc', 'A\nb\nc', 'A\nb\nC'],
    ['file and edit on one line: the edit', 'A\nb', 'a\nb', 'X\nb', 'X\nb'],
    ['file and edit on touching lines: both', 'A\nb\nc', 'a\nb\nc', 'a\nB\nc', 'A\nB\nc'],
    [
      'an edit over lines the file spells its own way: the edit',
      'a\nB\nC\nd',
      'a\nb\nc\nd',
      'a\nX\nd',
      'a\nX\nd',
    ],
    [
      'an edit of one of them: the edit takes the stretch',
      'a\nB\nC\nd',
      'a\nb\nc\nd',
      'a\nb\nX\nd',
      'a\nb\nX\nd',
    ],
    ['both insert at one place: the edit', 'a\nF\nb', 'a\nb', 'a\nE\nb', 'a\nE\nb'],
    ['both insert, at two places: both', 'a\nF\nb\nc', 'a\nb\nc', 'a\nb\nE\nc', 'a\nF\nb\nE\nc'],
    ['the edit inserts, then the file: both', 'a\nb\nF\nc', 'a\nb\nc', 'a\nE\nb\nc', 'a\nE\nb\nF\nc'],
    [
      'the edit inserts inside a file difference',
      'a\nB\nC\nd',
      'a\nb\nc\nd',
      'a\nb\nE\nc\nd',
      'a\nb\nE\nc\nd',
    ],
    ['the file inserts inside an edit', 'a\nb\nF\nc\nd', 'a\nb\nc\nd', 'a\nB\nC\nd', 'a\nB\nC\nd'],
    ['the file inserts where an edit ends: both', 'a\nb\nF\nc', 'a\nb\nc', 'a\nB\nc', 'a\nB\nF\nc'],
    ['the file inserts where an edit starts: both', 'a\nF\nb\nc', 'a\nb\nc', 'a\nB\nc', 'a\nF\nB\nc'],
    ['the edit inserts where a file difference ends: both', 'a\nB\nc', 'a\nb\nc', 'a\nb\nE\nc', 'a\nB\nE\nc'],
    [
      'the edit inserts where a file difference starts: both',
      'a\nB\nc',
      'a\nb\nc',
      'a\nE\nb\nc',
      'a\nE\nB\nc',
    ],
    ['the edit deletes a line', 'a\nB\nc\nd', 'a\nb\nc\nd', 'a\nb\nd', 'a\nB\nd'],
    ['the file has a line fewer', 'a\nc\nd', 'a\nb\nc\nd', 'a\nb\nc\nD', 'a\nc\nD'],
    ['three differences in a row', 'A\nb\nC\nd\ne', 'a\nb\nc\nd\ne', 'a\nB\nc\nD\ne', 'A\nB\nC\nD\ne'],
    [
      'a file difference spanning two edits',
      'a\nB\nC\nD\ne',
      'a\nb\nc\nd\ne',
      'a\nX\nc\nY\ne',
      'a\nX\nc\nY\ne',
    ],
    ['an edit spanning two file differences', 'a\nB\nc\nD\ne', 'a\nb\nc\nd\ne', 'a\nX\ne', 'a\nX\ne'],
    ['the edit appends', 'a\nB', 'a\nb', 'a\nb\nc', 'a\nB\nc'],
  ])('%s', (_what, original, before, after, expected) => {
    expect(mergeLines(original, before, after)).toBe(expected);
  });
});
