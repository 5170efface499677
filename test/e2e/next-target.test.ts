import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { useTempProjects } from '../helpers/temp-project.js';
import { makeExampleProject, runCli } from './helpers.js';

/**
 * The commands plan suggests are exact for the run that prints them: with two targets, a plan of the one that is not
 * the default names `--target staging` in every `next` (JSON) and every command of the comment (Markdown); the
 * default target's plan names none. Two emulators on 127.0.0.1:0, one per target.
 */

const tempProject = useTempProjects('wfsync-e2e-');
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

function targetLines(name: string, emulator: RunningEmulator, keyEnv: string): string[] {
  return [
    `  ${name}:`,
    `    baseUrl: ${emulator.url}`,
    `    apiKeyEnv: ${keyEnv}`,
    `    notificationGroupId: ${emulator.notificationGroupId}`,
    `    notificationGroups: { transactional: ${emulator.notificationGroupId} }`,
  ];
}

/**
 * A project whose config (`configName`) has `production` (the default) and `staging`; on staging, 3 of the 9 examples
 * synced, then one edited in the dashboard (drifted), one file deleted (orphaned), one edited and forgotten by state
 * (a conflict nobody can attribute), and 6 left to create: every item's `next` suggests a command.
 */
async function twoTargets(configName = 'wfsync.config.yaml') {
  const production = await startEmulator({ seed: 1 });
  const staging = await startEmulator({ seed: 2 });
  running.push(production, staging);
  const cwd = makeExampleProject({}, tempProject);
  const config = [
    'workflowsDir: workflows',
    'defaultTarget: production',
    'targets:',
    ...targetLines('production', production, 'PROD_KEY'),
    ...targetLines('staging', staging, 'STAGING_KEY'),
    '',
  ].join('\n');
  writeFileSync(join(cwd, configName), config);
  const env = { PROD_KEY: production.apiKey, STAGING_KEY: staging.apiKey };
  const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
    runCli(configName === 'wfsync.config.yaml' ? args : ['-c', configName, ...args], {
      cwd,
      env: { ...env, ...extraEnv },
    });
  const synced = await cli([
    'sync',
    '--target',
    'staging',
    '--quiet',
    '--only',
    'order-shipped',
    'password-reset',
    'trial-ending',
  ]);
  expect(synced.stderr).toBe('');
  expect(synced.status).toBe(0);
  const edit = (identifier: string) =>
    staging.editWorkflow(identifier, (w) => {
      w.name = `${w.name} (edited)`;
    });
  edit('order-shipped');
  rmSync(join(cwd, 'workflows/password-reset.yaml'));
  edit('trial-ending');
  const statePath = join(cwd, '.wfsync/state/staging.json');
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  delete state.workflows['trial-ending'];
  writeFileSync(statePath, JSON.stringify(state));
  return { cwd, cli };
}

const ACTIONS = { create: 6, drifted: 1, orphaned: 1, conflict: 1 };

function planItems(stdout: string): Array<{ identifier: string; action: string; next: string }> {
  return parseJsonOutput('plan', stdout).items;
}

function countActions(items: ReadonlyArray<{ action: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.action] = (counts[item.action] ?? 0) + 1;
  return counts;
}

/** Every `wfsync …` command in backticks (or a code element) of a text. */
function commandsIn(text: string): string[] {
  return [...text.matchAll(/`(wfsync [^`]*)`|<code>(wfsync .*?)<\/code>/g)].map((m) => (m[1] ?? m[2])!);
}

describe('suggested commands name the target the run used', () => {
  it('plan --target staging --format json: every next names --target staging; markdown too', async () => {
    const { cli } = await twoTargets();
    const plan = await cli(['plan', '--target', 'staging', '--format', 'json', '--quiet']);
    expect(plan.status).toBe(6);
    const items = planItems(plan.stdout);
    expect(countActions(items)).toEqual(ACTIONS);
    for (const item of items) expect(item.next, item.identifier).toContain('--target staging');
    const byId = Object.fromEntries(items.map((i) => [i.identifier, i.next]));
    expect(byId['order-shipped']).toContain('`wfsync pull order-shipped --target staging`');
    expect(byId['password-reset']).toContain('`wfsync state forget password-reset --target staging`');
    expect(byId['trial-ending']).toContain('`wfsync plan --base <branch> --target staging`');
    expect(byId['invoice-overdue']).toBe('`wfsync sync --target staging` will create it.');

    const markdown = await cli(['plan', '--target', 'staging', '--format', 'markdown', '--quiet']);
    expect(markdown.status).toBe(6);
    const commands = commandsIn(markdown.stdout);
    // One per item's Next, and the closing steps' sync.
    expect(commands.length).toBeGreaterThanOrEqual(10);
    for (const command of commands) expect(command).toMatch(/ --target staging(?: |$)/);
    expect(commands).toContain('wfsync sync --target staging');
    expect(commands).toContain('wfsync pull order-shipped --target staging');
    expect(commands).toContain('wfsync plan --base <branch> --target staging');

    const github = await cli(['plan', '--target', 'staging', '--format', 'github', '--quiet']);
    const annotated = commandsIn(github.stdout);
    expect(annotated.length).toBeGreaterThanOrEqual(9);
    for (const command of annotated) expect(command).toMatch(/ --target staging(?: |$)/);

    const human = await cli(['plan', '--target', 'staging', '--quiet']);
    expect(human.stdout).toContain('Run "wfsync sync --target staging" to create.');

    // sync: what it leaves to a person carries the same advice.
    const sync = await cli(['sync', '--target', 'staging', '--format', 'json', '--quiet']);
    expect(sync.status).toBe(6);
    const outcomes: Array<{ identifier: string; outcome: string; next?: string }> = parseJsonOutput(
      'sync',
      sync.stdout,
    ).outcomes;
    const left = outcomes.filter((o) => o.outcome !== 'created');
    expect(left.map((o) => o.outcome).sort()).toEqual(['conflict', 'drifted', 'orphaned']);
    for (const o of left) expect(o.next, o.identifier).toMatch(/`wfsync [^`]* --target staging`/);
  });

  it('WFSYNC_TARGET=staging: the same commands; the default target: none named', async () => {
    const { cli } = await twoTargets();
    const fromEnv = await cli(['plan', '--format', 'json', '--quiet'], { WFSYNC_TARGET: 'staging' });
    const items = planItems(fromEnv.stdout);
    expect(countActions(items)).toEqual(ACTIONS);
    for (const item of items) expect(item.next, item.identifier).toContain('--target staging');
    // A plan that fails (the key refused) says how to run it again, with the target too.
    const refused = await cli(['plan', '--format', 'markdown', '--quiet'], {
      WFSYNC_TARGET: 'staging',
      STAGING_KEY: 'not-the-key',
    });
    expect(refused.status).toBe(4);
    expect(refused.stdout).toContain('`wfsync plan --target staging`');

    // production is the default: its plan reads as before (every example to create, bare `sync`).
    const production = await cli(['plan', '--target', 'production', '--format', 'json', '--quiet']);
    const created = planItems(production.stdout);
    expect(created).toHaveLength(8);
    for (const item of created) expect(item.next).toBe('sync will create it.');
    const comment = await cli(['plan', '--format', 'markdown', '--quiet']);
    expect(commandsIn(comment.stdout)).toEqual(['wfsync sync']);
  });

  it('a config file given with -c (its name holding a space) is repeated, quoted for the shell', async () => {
    const { cli } = await twoTargets('two targets.yaml');
    const plan = await cli(['plan', '--target', 'staging', '--format', 'json', '--quiet']);
    const byId = Object.fromEntries(planItems(plan.stdout).map((i) => [i.identifier, i.next]));
    expect(byId['order-shipped']).toContain(
      "`wfsync -c 'two targets.yaml' pull order-shipped --target staging`",
    );
  });
});
