// Mutation testing (`npm run mutation`): Stryker mutates the files that decide what wfsync sends, stores and reports,
// and runs the unit tests that cover each mutant. Batches keep a run inside one CI job; scripts/mutation.mjs runs
// them and checks every file against its target score (CONTRIBUTING.md, "Mutation testing").
import { MUTATION_BATCHES } from './scripts/mutation-batches.mjs';

const batchName = process.env.WFSYNC_MUTATION_BATCH;
const batch = MUTATION_BATCHES.find((b) => b.name === batchName);
if (batchName !== undefined && batch === undefined) {
  throw new Error(
    `unknown mutation batch "${batchName}"; batches: ${MUTATION_BATCHES.map((b) => b.name).join(', ')}`,
  );
}
const mutate = batch ? batch.mutate : MUTATION_BATCHES.flatMap((b) => b.mutate);
const testFiles = batch ? batch.testFiles : MUTATION_BATCHES.flatMap((b) => b.testFiles);
const reportDir = process.env.WFSYNC_MUTATION_REPORT_DIR ?? `reports/mutation/${batch ? batch.name : 'all'}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate,
  testFiles,
  // Static mutants (in module-level constants, run once at import) would each need every test run again in a fresh
  // module graph; they are left out, and the tables in the tests hold those constants' behaviour instead.
  ignoreStatic: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // Its own sandbox folder per run (WFSYNC_MUTATION_TMP), so runs side by side never delete each other's.
  tempDirName: process.env.WFSYNC_MUTATION_TMP ?? '.stryker-tmp',
  ignorePatterns: ['/.stryker-tmp*', '/reports', '/dist', '/coverage', '/.wfsync', '/.vitest-results.json'],
  cleanTempDir: 'always',
  incremental: process.env.WFSYNC_MUTATION_INCREMENTAL === '1',
  incrementalFile: `${reportDir}/incremental.json`,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  concurrency: Number(process.env.WFSYNC_MUTATION_CONCURRENCY ?? 2),
  thresholds: { high: 90, low: 85, break: null },
};
