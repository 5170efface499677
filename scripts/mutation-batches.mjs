// The files mutation testing covers, in batches that each fit one CI job, with the score each file must reach.
// A glob's target applies to every file it matches; scripts/mutation.mjs checks them after a run.

/** @type {{name: string, mutate: string[], targets: {glob: string, score: number}[]}[]} */
export const MUTATION_BATCHES = [
  {
    name: 'plan',
    mutate: ['src/plan/**/*.ts'],
    targets: [{ glob: 'src/plan/**', score: 90 }],
  },
  {
    name: 'remote-state',
    mutate: [
      'src/remote/interpret*.ts',
      'src/remote/retry.ts',
      'src/remote/backoff.ts',
      'src/state/store.ts',
      'src/state/lock*.ts',
    ],
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
      'src/report/plan/markdown.ts',
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
    targets: [{ glob: 'src/derive/**', score: 85 }],
  },
];
