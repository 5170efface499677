import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectJsonContract } from '../helpers/json-output.js';
import { type ProjectFiles, tempProject } from '../helpers/temp-project.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin/wfsync.cjs');

export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawn the built CLI as a user would (no TTY, NO_COLOR, TZ=UTC), in `cwd`. A run given `--format json` is checked
 * against the JSON contract: one document of the command's schema on stdout, or the run fails the test.
 */
export function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // The run's shared compile cache (test/global-setup.ts).
      WFSYNC_COMPILE_CACHE: process.env.WFSYNC_COMPILE_CACHE,
      NO_COLOR: '1',
      TZ: 'UTC',
    };
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      const result = { status, signal, stdout, stderr };
      try {
        // Every `--format json` run in the e2e suite is held to the JSON contract (test/helpers/json-output.ts).
        expectJsonContract(args, result);
        resolve(result);
      } catch (error) {
        reject(error);
      }
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A temp project directory with the given files (path → content). */
export function makeProject(files: ProjectFiles): string {
  return tempProject(files, 'wfsync-e2e-');
}

/** The trigger identifiers of the repository's nine example workflows (workflows/), sorted. */
export const EXAMPLE_IDENTIFIERS = [
  'appointment-reminder',
  'comment-mention',
  'deployment-failed',
  'invoice-overdue',
  'monthly-usage-report',
  'order-shipped',
  'password-reset',
  'trial-ending',
  'weekly-activity-digest',
];

/**
 * A temp project holding a copy of the repository's example workflows and schemas, made by `make` (a
 * `useTempProjects` maker, for a file that removes its projects).
 */
export function makeExampleProject(
  extra: Record<string, string> = {},
  make: (files: ProjectFiles) => string = makeProject,
): string {
  const dir = make(extra);
  cpSync(join(ROOT, 'workflows'), join(dir, 'workflows'), { recursive: true });
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(ROOT, 'wfsync.config.yaml'), join(dir, 'wfsync.config.yaml'));
  return dir;
}
