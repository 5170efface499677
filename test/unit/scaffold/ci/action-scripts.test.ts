import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../helpers/fc-runs.js';

/**
 * The action's scripts (action/*.mjs: plain JavaScript the action runs from its checkout, node built-ins only),
 * imported directly. The specifiers are built at run time: the scripts carry no type declarations.
 */
const ACTION = fileURLToPath(new URL('../../../../action/', import.meta.url));
const load = (name: string) => import(pathToFileURL(`${ACTION}${name}`).href);
const { splitArgs } = await load('args.mjs');

/** A shell's single quoting of one word ('it'\''s'). */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

describe('splitArgs', () => {
  it('reads back any words quoted as a shell would quote them, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { maxLength: 6 }), (words) => {
        expect(splitArgs(words.map(quote).join(' '))).toEqual(words);
      }),
      { numRuns: runs(300) },
    );
  });

  it('quotes, backslashes and whitespace group; nothing is expanded', () => {
    expect(splitArgs(` --only  "order-*"\n-q a\\ b "x\\"y" '$HOME' $(id) ""`)).toEqual([
      '--only',
      'order-*',
      '-q',
      'a b',
      'x"y',
      '$HOME',
      '$(id)',
      '',
    ]);
    expect(() => splitArgs(`'open`)).toThrow('args: a single quote is not closed');
  });
});
