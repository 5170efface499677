// How many cases a property runs. A normal run (`npm test`) explores as many as the test asks. Two profiles cap it
// (WFSYNC_FC_PROFILE): `mutation` (set by vitest.mutation.config.ts) runs at most MUTATION_RUNS cases from a fixed
// seed, so thousands of mutants each finish in seconds and a surviving mutant is the same on every run; `fast` (set
// by `npm run test:fast`) runs at most FAST_RUNS cases from the same fixed seed, so the fast lane stays under a minute
// and never fails by chance; `npm test` explores new inputs on every local run.
export const MUTATION_RUNS = 100;
export const FAST_RUNS = 100;

const profile = process.env.WFSYNC_FC_PROFILE;

export const mutationProfile = profile === 'mutation';

/** The cap on cases per property in this run, if any. */
export const runCap: number | undefined = mutationProfile
  ? MUTATION_RUNS
  : profile === 'fast'
    ? FAST_RUNS
    : undefined;

export function runs(count: number): number {
  return runCap === undefined ? count : Math.min(count, runCap);
}
