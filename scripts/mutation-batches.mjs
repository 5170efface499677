// The files mutation testing covers, in batches that each fit one CI job, with the score each file must reach.
// A glob's target applies to the files it matches together; scripts/mutation.mjs checks them after a run.
// Each batch runs its area's own unit tests (`testFiles`): the tests written to pin that code must kill its
// mutants, and the differential property tests of other areas (30 s each under the mutation profile) stay out.

/** @type {import('./mutation-batches.d.mts').MutationBatch[]} */
export const MUTATION_BATCHES = [
  {
    name: 'plan',
    mutate: ['src/plan/**/*.ts'],
    // pull's tests convert, merge and hash through plan's shapes and bodies: both batches run both folders.
    testFiles: ['test/unit/plan/**/*.test.ts', 'test/unit/pull/**/*.test.ts'],
    targets: [{ glob: 'src/plan/**', score: 90 }],
  },
  {
    name: 'pull',
    mutate: ['src/pull/**/*.ts'],
    testFiles: ['test/unit/plan/**/*.test.ts', 'test/unit/pull/**/*.test.ts'],
    targets: [{ glob: 'src/pull/**', score: 90 }],
  },
  {
    name: 'remote-state',
    mutate: [
      'src/remote/interpret.ts',
      // retry.ts holds the backoff, session.ts the retry budgets, rate-limit-headers.ts Retry-After and RateLimit-Reset.
      'src/remote/retry.ts',
      'src/remote/session.ts',
      'src/remote/rate-limit-headers.ts',
      'src/state/store.ts',
      'src/state/lock*.ts',
    ],
    testFiles: ['test/unit/remote/**/*.test.ts', 'test/unit/state/**/*.test.ts'],
    targets: [
      { glob: 'src/remote/**', score: 90 },
      { glob: 'src/state/store.ts', score: 90 },
      { glob: 'src/state/lock*.ts', score: 85 },
    ],
  },
  {
    name: 'apply-report',
    mutate: [
      'src/apply/create-one.ts',
      'src/apply/reconcile-pending.ts',
      'src/validate/rules/variables.ts',
      'src/report/github.ts',
      'src/report/plan/github.ts',
      'src/report/plan/markdown.ts',
    ],
    testFiles: [
      'test/unit/apply/**/*.test.ts',
      'test/unit/validate/rules/variables*.test.ts',
      'test/unit/report/**/*.test.ts',
    ],
    targets: [
      { glob: 'src/apply/**', score: 85 },
      { glob: 'src/validate/rules/variables.ts', score: 90 },
      { glob: 'src/report/**', score: 90 },
    ],
  },
  {
    name: 'derive',
    mutate: ['src/derive/**/*.ts'],
    testFiles: ['test/unit/derive/**/*.test.ts'],
    targets: [{ glob: 'src/derive/**', score: 85 }],
  },
];
