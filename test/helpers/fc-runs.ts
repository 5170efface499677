// How many cases a property runs. A normal run explores as many as the test asks; under mutation testing
// (WFSYNC_FC_PROFILE=mutation, set by vitest.mutation.config.ts) each property runs at most MUTATION_RUNS cases from a
// fixed seed, so thousands of mutants each finish in seconds and a surviving mutant is the same on every run.
export const MUTATION_RUNS = 100;

export const mutationProfile = process.env.WFSYNC_FC_PROFILE === 'mutation';

export function runs(count: number): number {
  return mutationProfile ? Math.min(count, MUTATION_RUNS) : count;
}
