import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentLines } from '../../../src/definitions/document-lines.js';
import { FIXTURES, parseText } from './helpers.js';

/** documentLines (read from the text) answers what locate('') (built from the YAML tree) answers for a mapping. */

const WORKFLOWS = fileURLToPath(new URL('../../../workflows/', import.meta.url));

function treeLines(text: string): { line: number; endLine: number } | undefined {
  const { definition } = parseText(text);
  if (definition === undefined || typeof definition.value !== 'object' || definition.value === null)
    return undefined;
  const { line, endLine } = definition.locate('');
  return { line, endLine };
}

const yamlFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));

describe('documentLines', () => {
  it('agrees with locate("") on every example workflow and definition fixture', () => {
    const files = [...yamlFiles(WORKFLOWS), ...yamlFiles(FIXTURES)];
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const tree = treeLines(text);
      if (tree === undefined) continue;
      expect(documentLines(text), file).toEqual(tree);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it.each([
    [
      'a modeline and comments before, a comment after',
      '# yaml-language-server: $schema=x\n\n# about\nname: a\nsteps: []\n# end\n',
    ],
    ['document markers and a directive', '%YAML 1.2\n---\nname: a\nsteps: []\n...\n'],
    ['a marker with a comment', '--- # start\nname: a\n'],
    [
      'a block scalar whose last line looks like a comment',
      'name: a\ncontent: |\n  hello\n  # not a comment\n',
    ],
    ['CRLF line ends and trailing blank lines', 'name: a\r\nsteps: []\r\n\r\n\r\n'],
    ['an indented comment before the first key', '  # note\nname: a\n'],
    ['a flow mapping on one line', '{name: a, steps: []}\n'],
  ])('agrees with locate("") on %s', (_name, text) => {
    expect(documentLines(text)).toEqual(treeLines(text));
  });

  it('answers nothing for a text with no content', () => {
    expect(documentLines('# only a comment\n\n')).toBeUndefined();
  });
});
