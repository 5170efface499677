import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validNumbered } from '../fixtures/workflow-texts.js';
import { makeProject } from './helpers.js';
import { RULE_CONTROL_FINDINGS, RULE_CONTROL_PROJECT, type Served, startServe } from './preview-helpers.js';

/**
 * `wfsync preview --serve` follows the config file as `validate --watch` does (the built CLI, plain HTTP against its
 * API: the page itself is tested in headless Chromium in preview-page.test.ts): rule severities and workflowsDir
 * apply on save, the new folder is watched, and a config that no longer reads keeps the old one serving.
 */

interface Listing {
  version: number;
  workflows: Array<{ file: string; broken: boolean }>;
}
interface Rendered {
  workflow?: { diagnostics: Array<{ code: string; severity: string }> };
}

const running: Served[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function listing(served: Served): Promise<Listing> {
  return (await (await fetch(new URL('api/workflows', served.url))).json()) as Listing;
}

/** Waits (at most 20 s: a save is seen in milliseconds) for the listing to satisfy `done`. */
async function until(served: Served, done: (l: Listing) => boolean): Promise<Listing> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = await listing(served);
    if (done(now)) return now;
    if (Date.now() > deadline)
      throw new Error(`the page never changed: ${JSON.stringify(now)}\n${served.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function findings(served: Served, file: string): Promise<string[]> {
  const answer = await fetch(new URL('api/render', served.url), {
    method: 'POST',
    body: JSON.stringify({ file }),
    headers: { 'content-type': 'application/json' },
  });
  const body = (await answer.json()) as Rendered;
  return (body.workflow?.diagnostics ?? []).map((d) => `${d.code}:${d.severity}`);
}

const NICKNAME = validNumbered(1).replace(
  'Order {{orderId}} shipped',
  'Hi {{subscriber.nickname}}: {{orderId}}',
);

describe('preview --serve and the config file', () => {
  it('reloads on a config change: severities at once, a new workflowsDir watched, a broken config reported', {
    timeout: 120_000,
  }, async () => {
    const cwd = makeProject({
      'wfsync.config.yaml': 'workflowsDir: workflows\n',
      'workflows/hello.yaml': NICKNAME,
      'services/billing/bye.yaml': validNumbered(2),
    });
    const config = join(cwd, 'wfsync.config.yaml');
    const served = await startServe(cwd);
    running.push(served);
    const first = await listing(served);
    expect(first.workflows.map((w) => w.file)).toEqual(['workflows/hello.yaml']);
    expect(await findings(served, 'workflows/hello.yaml')).toContain('render-empty:warning');

    // A severity: the next render follows it.
    writeFileSync(config, 'workflowsDir: workflows\nrules:\n  render-empty: off\n');
    const quiet = await until(served, (l) => l.version > first.version);
    expect(await findings(served, 'workflows/hello.yaml')).not.toContain('render-empty:warning');
    expect(served.stderr()).toContain('wfsync preview: the config changed: every workflow checked again\n');

    // Another folder: its definitions listed, the old ones gone, and a save there seen.
    writeFileSync(config, 'workflowsDir: services/billing\n');
    const moved = await until(served, (l) => l.version > quiet.version);
    expect(moved.workflows.map((w) => w.file)).toEqual(['services/billing/bye.yaml']);
    writeFileSync(join(cwd, 'services/billing/bye.yaml'), 'name: [unclosed\n');
    const broken = await until(served, (l) => l.version > moved.version);
    expect(broken.workflows).toMatchObject([{ file: 'services/billing/bye.yaml', broken: true }]);

    // A config that no longer reads: said on stderr, the page keeps serving what it had.
    writeFileSync(config, 'workflowsDir: services/billing\nrules:\n  no-such-rule: off\n');
    const deadline = Date.now() + 20_000;
    while (!served.stderr().includes('still serving with the config as it was') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(served.stderr()).toContain(
      'wfsync preview: still serving with the config as it was; fix it and save again\n',
    );
    expect((await listing(served)).workflows.map((w) => w.file)).toEqual(['services/billing/bye.yaml']);
    // Fixed: back to the config's folder.
    writeFileSync(config, 'workflowsDir: workflows\n');
    const back = await until(served, (l) => l.workflows.some((w) => w.file === 'workflows/hello.yaml'));
    expect(back.workflows.map((w) => w.file)).toEqual(['workflows/hello.yaml']);
    expect(await findings(served, 'workflows/hello.yaml')).toContain('render-empty:warning');
  });

  it("renders with the project's wfsync-disable comments and overrides, as validate reports", {
    timeout: 120_000,
  }, async () => {
    const cwd = makeProject(RULE_CONTROL_PROJECT);
    const served = await startServe(cwd);
    running.push(served);
    const shown: Record<string, string[]> = {};
    for (const file of Object.keys(RULE_CONTROL_FINDINGS))
      shown[file] = (await findings(served, file)).map((f) => `${f}:6`);
    expect(shown).toEqual(RULE_CONTROL_FINDINGS);
  });

  it('follows a config file that appears, goes and comes back by rename (the project had none)', {
    timeout: 120_000,
  }, async () => {
    const cwd = makeProject({
      'workflows/hello.yaml': NICKNAME,
      'services/billing/bye.yaml': validNumbered(2),
    });
    const config = join(cwd, 'wfsync.config.yaml');
    const served = await startServe(cwd);
    running.push(served);
    const first = await listing(served);
    expect(first.workflows.map((w) => w.file)).toEqual(['workflows/hello.yaml']);
    expect(await findings(served, 'workflows/hello.yaml')).toContain('render-empty:warning');

    // Created: its rules apply.
    writeFileSync(config, 'rules:\n  render-empty: off\n');
    const created = await until(served, (l) => l.version > first.version);
    expect(await findings(served, 'workflows/hello.yaml')).not.toContain('render-empty:warning');

    // Deleted: the defaults again.
    rmSync(config);
    const gone = await until(served, (l) => l.version > created.version);
    expect(await findings(served, 'workflows/hello.yaml')).toContain('render-empty:warning');

    // Back, saved by rename, with another workflowsDir: listed, and a save there seen.
    writeFileSync(join(cwd, '.wfsync.config.yaml.new'), 'workflowsDir: services/billing\n');
    renameSync(join(cwd, '.wfsync.config.yaml.new'), config);
    const moved = await until(served, (l) => l.version > gone.version);
    expect(moved.workflows.map((w) => w.file)).toEqual(['services/billing/bye.yaml']);
    writeFileSync(join(cwd, 'services/billing/bye.yaml'), 'name: [unclosed\n');
    const broken = await until(served, (l) => l.workflows.some((w) => w.broken));
    expect(broken.workflows).toMatchObject([{ file: 'services/billing/bye.yaml', broken: true }]);

    // Deleted and re-created once more: still followed.
    rmSync(config);
    await until(served, (l) => l.workflows.some((w) => w.file === 'workflows/hello.yaml'));
    writeFileSync(join(cwd, 'wfsync.config.yaml~'), 'rules:\n  render-empty: error\n');
    renameSync(join(cwd, 'wfsync.config.yaml~'), config);
    // A generous wait: on a loaded machine the rename was seen after 22.8 s once (it is seen, only late).
    const deadline = Date.now() + 60_000;
    let seen = await findings(served, 'workflows/hello.yaml');
    while (!seen.includes('render-empty:error') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await findings(served, 'workflows/hello.yaml');
    }
    expect(seen).toContain('render-empty:error');
  });
  it('starts with nothing to read (no workflows/, no config), says so, and fills in when a config names a folder', {
    timeout: 120_000,
  }, async () => {
    const cwd = makeProject({ 'services/billing/bye.yaml': validNumbered(2) });
    const served = await startServe(cwd);
    running.push(served);
    expect(served.stderr()).toContain(
      'wfsync preview: no folder of workflowsDir (workflows) exists yet: the page fills in when one comes, or a ' +
        'config file naming another\n',
    );
    const first = await listing(served);
    expect(first.workflows).toEqual([]);
    writeFileSync(join(cwd, 'wfsync.config.yaml'), 'workflowsDir: services/billing\n');
    const filled = await until(served, (l) => l.workflows.length > 0);
    expect(filled.workflows.map((w) => w.file)).toEqual(['services/billing/bye.yaml']);
  });
});
