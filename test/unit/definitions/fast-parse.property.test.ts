import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDefinitionFast } from '../../../src/definitions/fast-parse.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { assertProperty } from '../../helpers/fc-assert.js';
import { runs } from '../../helpers/fc-runs.js';
import { characterSoup, editedWorkflow, lineSoup, REAL_TEXTS, yamlDocument } from './yaml-arbitraries.js';

const encoder = new TextEncoder();

/** Deep equality that tells -0 from 0 and minds key order (Object.is at the leaves). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    const other = Object.keys(b);
    return (
      keys.length === other.length &&
      keys.every((key, i) => key === other[i]) &&
      keys.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
    );
  }
  return Object.is(a, b);
}

/**
 * The property: whenever the fast path answers, yaml (the reference) reads the same bytes without a single
 * diagnostic, to the same value and text, and locates every pointer the same way. Returns whether it answered.
 */
function agreesWithReference(text: string): boolean {
  const bytes = encoder.encode(text);
  const fast = parseDefinitionFast('p.yaml', bytes);
  if (fast === undefined) return false;
  const reference = parseDefinition('p.yaml', bytes);
  expect(reference.diagnostics, JSON.stringify(text)).toEqual([]);
  const value = reference.definition?.value;
  if (!sameValue(fast.value, value)) {
    expect.fail(
      `values differ for ${JSON.stringify(text)}:\n${JSON.stringify(fast.value)}\n${JSON.stringify(value)}`,
    );
  }
  expect(fast.text).toBe(reference.definition?.text);
  // Exact through JSON: the value is plain data.
  if (!sameValue(JSON.parse(JSON.stringify(fast.value)), fast.value)) {
    expect.fail(`the value changes through JSON for ${JSON.stringify(text)}: ${JSON.stringify(fast.value)}`);
  }
  for (const key of Object.keys(fast.value as object).slice(0, 3)) {
    const pointer = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    expect(fast.locate(pointer)).toEqual(reference.definition?.locate(pointer));
    expect(fast.locate(pointer, 'key')).toEqual(reference.definition?.locate(pointer, 'key'));
  }
  return true;
}

/** Structural lines whose indentation drifts by small steps, so many files stay valid for several lines. */
const STRUCTURE_LINES = [
  'k:',
  'k:',
  'k: v',
  'k: v',
  'k: |',
  'k: >-',
  '- ',
  '-',
  '- k:',
  '- k: v',
  '- |',
  '#c',
  '#c',
  '',
  '  ',
  '    ',
]
  .concat([
    'v',
    'v w',
    '|',
    '>',
    'k: [a: b]',
    '- [a: b]',
    'k: v #c',
    'k: [a,',
    '  b]',
    '- - v',
    'k: [b: c, d]',
    'k: "v',
    '  w"',
  ])
  .concat(['k: ""', 'k: 1', 'k: true', 'k: null']);
const driftingStructure: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom(-4, -2, -2, -1, 0, 0, 0, 1, 2, 2, 2, 4),
      fc.constantFrom(...STRUCTURE_LINES),
      fc.nat(5),
    ),
    { minLength: 2, maxLength: 14 },
  )
  .map((lines) => {
    let indent = 0;
    const body = lines.map(([step, line, key]) => {
      indent = Math.max(0, indent + step);
      return ' '.repeat(indent) + line.replace(/k:/, `${'abcdef'[key]}:`);
    });
    return `name: x\n${body.join('\n')}\n`;
  });

/** Runs the property and returns how many inputs the fast path took, so a test can show it is not vacuous. */
function acceptedCount(arbitrary: fc.Arbitrary<string>, numRuns: number): number {
  let accepted = 0;
  assertProperty(
    fc.property(arbitrary, (text) => {
      if (agreesWithReference(text)) accepted++;
    }),
    { numRuns: runs(numRuns) },
  );
  return accepted;
}

// 300,000 runs per generator found nothing once the fast path refused what earlier runs caught: a comment glued to a
// flow indicator, a mapping used as a key, js-yaml running an empty list entry on into a less indented line, an
// indentation indicator on a block scalar, `---#`. Seed 1075840800 later found a mapping key hidden by a flow
// list's one-pair mapping (fast-parse.test.ts); after that fix, 20 more seeds at three to ten times these runs
// found nothing. Later one run in a full suite failed on an edited workflow without its seed being kept: seeds 1004
// and 1007 (of 26 at 5,000 runs) found it again, a comment line between a key and its value on a later line
// (fast-parse.test.ts). A failure now prints the line that replays it (test/helpers/fc-assert.ts). These runs keep
// watch at a cost of a few seconds.
describe('parseDefinitionFast agrees with parseDefinition wherever it answers (property-based)', () => {
  it('on documents written in every style from values full of ambiguous scalars', () => {
    const accepted = acceptedCount(yamlDocument, 3000);
    expect(accepted).toBeGreaterThan(runs(3000) / 10);
  });

  // 3,000 full parses of real workflows, twice each: ~3 s alone, past 30 s on a machine shared with other builds.
  it('on the example workflows with random edits', () => {
    const accepted = acceptedCount(editedWorkflow, 3000);
    expect(accepted).toBeGreaterThan(runs(3000) / 5);
  }, 120_000);

  it('on raw character soup', () => {
    const accepted = acceptedCount(characterSoup, 3000);
    expect(accepted).toBeGreaterThan(runs(3000) / 10);
  });

  it('on lines of indentation and YAML syntax fragments', () => {
    const accepted = acceptedCount(lineSoup, 3000);
    expect(accepted).toBeGreaterThan(runs(3000) / 300);
  });

  it('on structural lines at drifting indentation (comment and blank lines, block scalars, flow pairs)', () => {
    const accepted = acceptedCount(driftingStructure, 3000);
    expect(accepted).toBeGreaterThan(runs(3000) / 100);
  });

  it('takes the example workflows and the benchmark files as they are', () => {
    for (const text of REAL_TEXTS) expect(agreesWithReference(text)).toBe(true);
  });
});
