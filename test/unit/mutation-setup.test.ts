import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MUTATION_BATCHES } from '../../scripts/mutation-batches.mjs';
import { checkTargets, score, tally } from '../../scripts/mutation-score.mjs';
import { FAST_RUNS, MUTATION_RUNS, runs } from '../helpers/fc-runs.js';

const root = join(import.meta.dirname, '../..');

function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
}

describe('the mutation-testing set-up', () => {
  const files = sourceFiles().filter((f) => f.endsWith('.ts'));

  it('mutates existing files, each in one batch, runs existing tests, and every target covers mutated files', () => {
    const owner = new Map<string, string>();
    for (const batch of MUTATION_BATCHES) {
      for (const glob of batch.mutate) {
        const isMatch = picomatch(glob);
        const matched = files.filter((f) => isMatch(f));
        expect(matched, `${batch.name}: ${glob}`).not.toEqual([]);
        for (const file of matched) {
          expect(owner.get(file), `${file} is in two batches`).toBeUndefined();
          owner.set(file, batch.name);
        }
      }
      const tests = sourceFiles('test/unit');
      for (const glob of batch.testFiles) {
        const isMatch = picomatch(glob);
        expect(
          tests.filter((f) => isMatch(f)),
          `${batch.name}: ${glob}`,
        ).not.toEqual([]);
      }
      for (const target of batch.targets) {
        const mutated = files.filter((f) => owner.get(f) === batch.name);
        const isMatch = picomatch(target.glob);
        expect(
          mutated.filter((f) => isMatch(f)),
          `${batch.name}: ${target.glob}`,
        ).not.toEqual([]);
      }
    }
  });

  it('the weekly workflow runs every batch, one job each', () => {
    const workflow = parse(readFileSync(join(root, '.github/workflows/mutation.yml'), 'utf8'));
    expect(workflow.jobs.mutation.strategy.matrix.batch).toEqual(MUTATION_BATCHES.map((b) => b.name));
  });

  it('scores detected over valid mutants and checks targets over the files a glob matches', () => {
    const statuses = (...list: string[]) => list.map((status) => ({ status }));
    const t = tally(statuses('Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'Ignored'));
    expect(t).toEqual({ detected: 2, valid: 4, survived: 1, noCoverage: 1 });
    expect(score(t)).toBe(50);
    expect(score(tally([]))).toBe(100);
    const report = {
      files: {
        [join(root, 'src/a/x.ts')]: { mutants: statuses('Killed', 'Killed', 'Killed', 'Survived') },
        [join(root, 'src/a/y.ts')]: { mutants: statuses('Killed') },
        [join(root, 'src/b/z.ts')]: { mutants: statuses('Survived') },
      },
    };
    const checked = checkTargets(
      report,
      [
        { glob: 'src/a/**', score: 80 },
        { glob: 'src/b/**', score: 1 },
        { glob: 'src/c/**', score: 0 },
      ],
      root,
    );
    expect(checked.map(({ files, reached, met }) => ({ files, reached, met }))).toEqual([
      { files: 2, reached: 80, met: true },
      { files: 1, reached: 0, met: false },
      { files: 0, reached: 100, met: false },
    ]);
  });

  it('caps property runs only under the mutation and fast profiles', () => {
    const caps: Record<string, number> = { mutation: MUTATION_RUNS, fast: FAST_RUNS };
    const expected = caps[process.env.WFSYNC_FC_PROFILE ?? ''] ?? 3000;
    expect(runs(3000)).toBe(expected);
    expect(runs(10)).toBe(10);
  });
});
