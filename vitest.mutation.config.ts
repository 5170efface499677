import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// What Stryker runs for each mutant: the unit tests only (e2e tests spawn the built CLI, where a mutant never is),
// with fast-check's mutation profile (test/helpers/fc-runs.ts: a fixed seed and fewer cases per property).
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts'],
    globalSetup: [],
    env: { ...base.test?.env, WFSYNC_FC_PROFILE: 'mutation' },
  },
});
