import { describe, expect, it } from 'vitest';
import { fitMarkdown } from '../../../../src/report/plan/markdown-fit.js';

const block = (name: string, diff: number) => ({ full: `${name}:${'d'.repeat(diff)}`, lite: `${name}:-` });
const notice = (n: number) => `omitted ${n}`;
const base = { head: 'HEAD', notice, measure: (t: string) => t.length };

describe('fitMarkdown', () => {
  it('joins everything with blank lines when it fits', () => {
    const out = fitMarkdown({
      ...base,
      details: [block('a', 2)],
      inSync: { full: 'LIST', lite: 'N' },
      limit: 100,
    });
    expect(out).toBe('HEAD\n\na:dd\n\nLIST\n');
  });

  it('is exactly at the limit when it can be: the limit is inclusive', () => {
    const input = { ...base, details: [block('a', 2)] };
    expect(fitMarkdown({ ...input, limit: 'HEAD\n\na:dd\n'.length })).toBe('HEAD\n\na:dd\n');
    expect(fitMarkdown({ ...input, limit: 'HEAD\n\na:dd\n'.length - 1 })).toBe('HEAD\n\na:-\n');
  });

  it('drops diffs from the last block back, then shrinks the in-sync list, then drops blocks from the end', () => {
    const details = [block('a', 10), block('b', 10), block('c', 10)];
    const inSync = { full: 'L'.repeat(20), lite: 'N' };
    const run = (limit: number) => fitMarkdown({ ...base, details, inSync, limit });
    // Full: 4 + 3×(2+12) + 2+20 + 1 = 69.
    expect(run(69)).toBe(
      `HEAD\n\na:${'d'.repeat(10)}\n\nb:${'d'.repeat(10)}\n\nc:${'d'.repeat(10)}\n\n${'L'.repeat(20)}\n`,
    );
    expect(run(60)).toBe(`HEAD\n\na:${'d'.repeat(10)}\n\nb:${'d'.repeat(10)}\n\nc:-\n\n${'L'.repeat(20)}\n`);
    expect(run(42)).toBe(`HEAD\n\na:-\n\nb:-\n\nc:-\n\n${'L'.repeat(20)}\n`);
    expect(run(41)).toBe('HEAD\n\na:-\n\nb:-\n\nc:-\n\nN\n');
    // The notice's own size counts: dropping one or two blocks for it would still not fit in 22.
    expect(run(22)).toBe('HEAD\n\nN\n\nomitted 3\n');
  });

  it('measures with the given function (UTF-8 bytes for a step summary)', () => {
    const bytes = (t: string) => new TextEncoder().encode(t).length;
    const details = [{ full: 'a:€€€', lite: 'a:-' }];
    expect(fitMarkdown({ ...base, measure: bytes, details, limit: 'HEAD\n\na:€€€\n'.length })).toBe(
      'HEAD\n\na:-\n',
    );
  });
});
