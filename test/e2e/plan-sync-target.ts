import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  type EmulatorOptions,
  type RequestRecord,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';

export { closedPort } from '../helpers/closed-port.js';

import { useTempProjects } from '../helpers/temp-project.js';
import { makeExampleProject, type RunResult, runCli } from './helpers.js';

/**
 * A `dev` target for the e2e tests of plan/sync/pull/state: an emulator in the test process on 127.0.0.1:0, a
 * temp project holding the 9 examples whose wfsync.config.yaml points target `dev` at it, and the CLI run with
 * the key in DEV_KEY. Emulators and projects are closed and removed after each test.
 */

export { EXAMPLE_IDENTIFIERS } from './helpers.js';

export interface TargetRun extends RunResult {
  /** What the emulator answered during this run, oldest first. */
  requests: RequestRecord[];
  /** POSTs among them. */
  posts: number;
}

export interface StateJson {
  version: number;
  target: string;
  baseUrl: string;
  workflows: Record<string, { id: string; hash: string; origin: string; file?: string }>;
  pending: Record<string, unknown>;
}

export interface Target {
  emulator: RunningEmulator;
  cwd: string;
  statePath: string;
  /** Run the built CLI with `--target dev` appended and DEV_KEY set (override or unset it through `env`). */
  run(args: string[], env?: Record<string, string | undefined>): Promise<TargetRun>;
  /** The state file, parsed, or undefined when there is none. */
  state(): StateJson | undefined;
  /** Trigger identifiers of the workflows the emulator holds, sorted (duplicates kept). */
  stored(): string[];
}

export interface TargetOptions {
  emulator?: EmulatorOptions;
  /** Extra YAML lines for target `dev` (indented by 4 spaces), e.g. `retries: { maxAttempts: 10 }`. */
  targetConfig?: string[];
  /** Where target `dev` points; default the emulator. */
  baseUrl?: string;
}

const tempProject = useTempProjects('wfsync-e2e-');
const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export async function startTarget(options: TargetOptions = {}): Promise<Target> {
  const emulator = await startEmulator({ seed: 1, ...options.emulator });
  running.push(emulator);
  const cwd = makeExampleProject({}, tempProject);
  writeFileSync(join(cwd, 'wfsync.config.yaml'), configFor(emulator, options));
  const statePath = join(cwd, '.wfsync/state/dev.json');
  return {
    emulator,
    cwd,
    statePath,
    async run(args, env = {}) {
      const before = emulator.requests().length;
      const result = await runCli([...args, '--target', 'dev'], {
        cwd,
        env: { DEV_KEY: emulator.apiKey, ...env },
      });
      const requests = emulator.requests().slice(before);
      return { ...result, requests, posts: requests.filter((r) => r.method === 'POST').length };
    },
    state: () =>
      existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as StateJson) : undefined,
    stored: () =>
      emulator
        .workflows()
        .map((w) => w.triggers[0]!.identifier)
        .sort(),
  };
}

function configFor(emulator: RunningEmulator, options: TargetOptions): string {
  return [
    'workflowsDir: workflows',
    'rules:',
    '  identifier-name-mismatch: error',
    'targets:',
    '  dev:',
    `    baseUrl: ${options.baseUrl ?? emulator.url}`,
    '    apiKeyEnv: DEV_KEY',
    `    notificationGroupId: ${emulator.notificationGroupId}`,
    `    notificationGroups: { transactional: ${emulator.notificationGroupId} }`,
    ...(options.targetConfig ?? []).map((line) => `    ${line}`),
    '',
  ].join('\n');
}
