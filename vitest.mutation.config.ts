import { defineConfig } from 'vitest/config';
import { sharedOptions, unitOptions } from './vitest.config';

// What Stryker runs for each mutant: the unit tests only (e2e tests spawn the built CLI, where a mutant never is),
// with fast-check's mutation profile (test/helpers/fc-runs.ts: a fixed seed and fewer cases per property). No
// projects here: Stryker's vitest runner runs one.
export default defineConfig({
  test: {
    ...sharedOptions,
    ...unitOptions,
    env: { ...sharedOptions.env, WFSYNC_FC_PROFILE: 'mutation' },
  },
});
