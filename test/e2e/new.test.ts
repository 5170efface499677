import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeExampleProject, makeProject, runCli } from './helpers.js';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];

describe('wfsync new (the built CLI)', () => {
  it.each(CHANNELS)(
    '--channel %s: the file validates with zero warnings, and sync creates it under that identifier',
    async (channel) => {
      const cwd = makeProject({});
      const result = await runCli(['new', 'Order Shipped', '--channel', channel], { cwd });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        `created workflows/order-shipped.yaml (identifier order-shipped, one ${channel} step)\n`,
      );
      expect(result.status).toBe(0);
      const definition = parse(readFileSync(join(cwd, 'workflows/order-shipped.yaml'), 'utf8'));
      expect(definition).toMatchObject({ name: 'Order Shipped', steps: [{ template: { type: channel } }] });

      const validate = await runCli(['validate', '--max-warnings', '0'], { cwd });
      expect(validate.stdout).toBe('✔ 1 file valid\n');
      expect(validate.status).toBe(0);
      // The service (the embedded emulator) derives the same identifier: created, then in sync, not a conflict.
      const sync = await runCli(['sync', '--quiet'], { cwd });
      expect(sync.stdout).toContain('Sync: 1 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
      const plan = await runCli(['plan', '--quiet'], { cwd });
      expect(plan.stdout).toContain('No changes. 1 workflow in sync.');
      expect(plan.status).toBe(0);
    },
  );

  it('in a project: writes to the configured workflows directory, with the modeline to its schema', async () => {
    const cwd = makeExampleProject();
    const result = await runCli(['new', 'invoice paid', '--channel', 'email'], { cwd });
    expect(result.stdout).toBe(
      'created workflows/invoice-paid.yaml (identifier invoice-paid, one email step)\n',
    );
    const text = readFileSync(join(cwd, 'workflows/invoice-paid.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/workflow.schema.json');
    const validate = await runCli(['validate', '--max-warnings', '0'], { cwd });
    expect(validate.stdout).toMatch(/^✔ 10 files valid/);

    const nested = await runCli(
      ['new', 'build failed', '--channel', 'chat', '--dir', 'workflows/engineering'],
      { cwd },
    );
    expect(nested.stdout).toBe(
      'created workflows/engineering/build-failed.yaml (identifier build-failed, one chat step)\n',
    );
    expect(readFileSync(join(cwd, 'workflows/engineering/build-failed.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../schemas/workflow.schema.json',
    );
  });

  it('refuses to overwrite an existing file unless --force', async () => {
    const cwd = makeProject({});
    await runCli(['new', 'order shipped'], { cwd });
    const path = join(cwd, 'workflows/order-shipped.yaml');
    writeFileSync(path, `${readFileSync(path, 'utf8')}# my edit\n`);
    const refused = await runCli(['new', 'order shipped', '--channel', 'sms'], { cwd });
    expect(refused.stderr).toBe(
      'wfsync: workflows/order-shipped.yaml already exists; use --force to overwrite it\n',
    );
    expect(refused.status).toBe(64);
    expect(readFileSync(path, 'utf8')).toContain('# my edit');

    const forced = await runCli(['new', 'order shipped', '--channel', 'sms', '--force'], { cwd });
    expect(forced.stdout).toBe(
      'replaced workflows/order-shipped.yaml (identifier order-shipped, one sms step)\n',
    );
    expect(readFileSync(path, 'utf8')).not.toContain('# my edit');
    expect(parse(readFileSync(path, 'utf8')).steps[0].template.type).toBe('sms');
  });

  it('refuses an identifier another definition already has, even with --force', async () => {
    const cwd = makeProject({});
    await runCli(['new', 'order shipped'], { cwd });
    const workflows = join(cwd, 'workflows');
    writeFileSync(join(workflows, 'shipping.yaml'), readFileSync(join(workflows, 'order-shipped.yaml')));
    for (const args of [
      ['new', 'Order  Shipped!'],
      ['new', 'order shipped', '--force'],
    ]) {
      const refused = await runCli(args, { cwd });
      expect(refused.stderr).toBe(
        'wfsync: the identifier "order-shipped" is already used by workflows/shipping.yaml: choose another name\n',
      );
      expect(refused.status).toBe(64);
    }
  });

  it('a camelCase name: warns and suggests lower-case words; the name is kept, and the local target creates it', async () => {
    const cwd = makeProject({});
    const result = await runCli(['new', 'orderShipped'], { cwd });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'created workflows/ordershipped.yaml (identifier ordershipped, one in_app step)\n',
    );
    expect(result.stderr).toBe(
      'wfsync: warning: the service derives `ordershipped` (older servers) or `order-shipped` (newer servers) from ' +
        'the name "orderShipped"; the file declares `ordershipped`, and `wfsync validate` will warn about it. Name it ' +
        'with lower-case words to get the same identifier everywhere: wfsync new "order shipped"\n',
    );
    expect(parse(readFileSync(join(cwd, 'workflows/ordershipped.yaml'), 'utf8')).name).toBe('orderShipped');
    const validate = await runCli(['validate'], { cwd });
    expect(validate.stdout).toMatch(
      /^workflows\/ordershipped\.yaml:\d+:\d+ warning .* \[identifier-name-mismatch\]$/m,
    );
    expect(validate.stdout).toContain('✖ 1 problem (0 errors, 1 warning) in 1 of 1 file\n');
    expect(validate.status).toBe(0);
    const sync = await runCli(['sync', '--quiet'], { cwd });
    expect(sync.stdout).toContain('Sync: 1 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
  });

  it('a name the service derives no identifier from, or a bad channel: usage errors, nothing written', async () => {
    const cwd = makeProject({});
    const empty = await runCli(['new', '¡¿!'], { cwd });
    expect(empty.stderr).toBe(
      'wfsync: the service cannot derive a trigger identifier from "¡¿!": use ASCII letters or digits in the name\n',
    );
    expect(empty.status).toBe(64);
    const channel = await runCli(['new', 'x', '--channel', 'fax'], { cwd });
    expect(channel.stderr).toContain("option '--channel <channel>' argument 'fax' is invalid");
    expect(channel.stderr).toContain('Allowed choices are in_app, email, sms, chat, push.');
    expect(channel.status).toBe(64);
    const window = await runCli(['new', 'x', '--digest', 'soon'], { cwd });
    expect(window.stderr).toBe(
      'wfsync: --digest takes an amount and a unit (30s, 10m, 1h, 2d, 1w, 1mo), not "soon"\n',
    );
    expect(window.status).toBe(64);
    expect(await runCli(['validate'], { cwd })).toMatchObject({ status: 64 });
  });

  it('several channels, a delay and a digest: one file, its steps in order, valid at once', async () => {
    const cwd = makeProject({});
    const result = await runCli(
      ['new', 'weekly summary', '--delay', '10m', '--digest', '1w', '--channel', 'email', '--channel', 'sms'],
      { cwd },
    );
    expect(result.stdout).toBe(
      'created workflows/weekly-summary.yaml (identifier weekly-summary, 4 steps: delay, digest, email, sms)\n',
    );
    expect(result.status).toBe(0);
    expect(await runCli(['validate', '--max-warnings', '0'], { cwd })).toMatchObject({ status: 0 });
  });
});
