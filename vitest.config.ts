import { defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

/** What every test file runs with. */
export const sharedOptions = {
  setupFiles: ['test/setup-fast-check.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  env: { NO_COLOR: '1', TZ: 'UTC' },
} satisfies TestOptions;

/**
 * The unit tests: pure code and in-process servers, no build needed. Most of a file's time used to be starting a
 * process and importing src/ again; threads without isolation share one module cache per worker (no unit test mocks
 * modules, changes the working directory or leaves global state behind). One worker per core: vitest's default
 * leaves one core idle, which on two cores runs the files one at a time.
 */
export const unitOptions = {
  include: ['test/unit/**/*.test.ts'],
  pool: 'threads',
  isolate: false,
  maxWorkers: '100%',
} satisfies TestOptions;

// Two projects: `unit` and `e2e` (test/e2e, which spawns the built CLI in dist/, and test/security, the hostile
// cases of the security model, which spawn it too or run real servers on loopback). `npm test` builds and runs both;
// `npm run test:fast` (`--mode fast`) runs `unit` alone with fast-check's fast profile (test/helpers/fc-runs.ts).
export default defineConfig(({ mode }) => ({
  test: {
    ...sharedOptions,
    env: { ...sharedOptions.env, ...(mode === 'fast' ? { WFSYNC_FC_PROFILE: 'fast' } : {}) },
    projects: [
      { extends: true, test: { name: 'unit', ...unitOptions } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/security/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          pool: 'forks',
          // Every core here too: these files mostly wait on the processes they spawn (the CLI, git, pre-commit,
          // gitlab-ci-local, Chromium), so one file per core keeps both busy; one worker ran them one at a time.
          maxWorkers: '100%',
          // After the unit tests (projects with different worker counts run in turn).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
}));
