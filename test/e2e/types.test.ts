import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeExampleProject, makeProject, ROOT, runCli } from './helpers.js';
import { extractBlocks } from './readme-blocks.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/**
 * Compiles `files` (paths in `cwd`) with the real tsc, `--strict`, as a consumer project would; the errors by file
 * (`TS2561 …` lines), every file named in the answer (an empty list when it compiled).
 */
async function tscStrict(cwd: string, files: string[]): Promise<Record<string, string[]>> {
  const args = [TSC, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', ...files];
  const output = await promisify(execFile)(process.execPath, args, { cwd }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  const errors: Record<string, string[]> = Object.fromEntries(files.map((file) => [file, []]));
  for (const line of output.split('\n')) {
    const found = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (found?.[1] !== undefined && found[2] !== undefined)
      errors[found[1]] = [...(errors[found[1]] ?? []), found[2]];
    // An error of no file (a bad option) means nothing was compiled: the test must not read it as a pass.
    else if (/error TS\d+/.test(line)) throw new Error(`tsc did not compile: ${line}`);
  }
  return errors;
}

/** A consumer module calling `order-shipped` through the generated TriggerWorkflow type with `payload`. */
function consumer(payload: string, identifier = 'order-shipped'): string {
  return [
    "import type { TriggerWorkflow, WorkflowIdentifier } from './wfsync-payloads.js';",
    'declare const trigger: TriggerWorkflow<{ subscriberId: string }>;',
    `export const known: WorkflowIdentifier = ${JSON.stringify(identifier)};`,
    `export const sent = trigger(${JSON.stringify(identifier)}, { to: { subscriberId: 's-1' }, payload: ${payload} });`,
    '',
  ].join('\n');
}

const ITEMS = "items: [{ quantity: '2', name: 'Lamp' }]";
const CORRECT = `{ orderNumber: 'A-1', carrier: 'UPS', ${ITEMS}, trackingUrl: 'https://t.example/1' }`;

describe('wfsync types (the built CLI, then the real tsc --strict)', () => {
  it('types for the example workflows: a correct call compiles, a misspelled or missing key does not', async () => {
    const cwd = makeExampleProject();
    const written = await runCli(['types'], { cwd });
    expect(written.stderr).toBe('');
    expect(written.stdout).toBe('wrote wfsync-payloads.ts (9 workflows)\n');
    expect(written.status).toBe(0);
    writeFileSync(join(cwd, 'correct.ts'), consumer(CORRECT));
    writeFileSync(join(cwd, 'misspelled.ts'), consumer(CORRECT.replace('orderNumber', 'orderNumbr')));
    writeFileSync(
      join(cwd, 'missing.ts'),
      consumer(CORRECT.replace(", trackingUrl: 'https://t.example/1'", '')),
    );
    writeFileSync(join(cwd, 'unknown.ts'), consumer(CORRECT, 'order-shiped'));
    const errors = await tscStrict(cwd, ['correct.ts', 'misspelled.ts', 'missing.ts', 'unknown.ts']);
    expect(errors['correct.ts']).toEqual([]);
    expect(errors['misspelled.ts']?.join('\n')).toMatch(
      /TS2561: .*'orderNumbr'.*Did you mean to write 'orderNumber'/,
    );
    expect(errors['missing.ts']?.join('\n')).toMatch(/TS2741: Property 'trackingUrl' is missing/);
    expect(errors['unknown.ts']?.join('\n')).toMatch(/TS2820: Type '"order-shiped"' is not assignable/);
  }, 120_000);

  it('the example of docs/guides/typed-payloads.md compiles, each @ts-expect-error line failing as it says', async () => {
    const page = 'docs/guides/typed-payloads.md';
    const example = extractBlocks(readFileSync(join(ROOT, page), 'utf8'), page).find((block) =>
      block.directives.some((d) => d.kind === 'write' && d.file === 'notify.ts'),
    );
    expect(example?.body).toContain('@ts-expect-error');
    const cwd = makeExampleProject();
    expect((await runCli(['types'], { cwd })).status).toBe(0);
    writeFileSync(join(cwd, 'notify.ts'), example?.body ?? '');
    // An unused @ts-expect-error is itself an error (TS2578): each rejection is real.
    expect(await tscStrict(cwd, ['notify.ts'])).toEqual({ 'notify.ts': [] });
  }, 120_000);

  it('--check: up to date, stale after a definition edit (exit 3), up to date again after writing', async () => {
    const cwd = makeExampleProject();
    const missing = await runCli(['types', '--check'], { cwd });
    expect(missing.stderr).toBe('wfsync: wfsync-payloads.ts is missing: run "wfsync types" to write it\n');
    expect(missing.status).toBe(3);
    await runCli(['types'], { cwd });
    const fresh = await runCli(['types', '--check'], { cwd });
    expect(fresh.stdout).toBe('wfsync-payloads.ts is up to date (9 workflows)\n');
    expect(fresh.status).toBe(0);

    // The in-app step now reads the estimated delivery date, and the trigger declares it.
    const file = join(cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8')
      .replace(
        'content: Order {{orderNumber}} has shipped',
        'content: Order {{orderNumber}} arrives {{eta}}, shipped',
      )
      .replace(
        '      - { name: trackingUrl, type: String }',
        '      - { name: trackingUrl, type: String }\n      - { name: eta, type: String }',
      );
    writeFileSync(file, text);
    expect((await runCli(['validate'], { cwd })).status).toBe(0);
    const stale = await runCli(['types', '--check'], { cwd });
    expect(stale.stderr).toBe('wfsync: wfsync-payloads.ts is stale: run "wfsync types" to write it\n');
    expect(stale.stdout).toBe('');
    expect(stale.status).toBe(3);
    expect(readFileSync(join(cwd, 'wfsync-payloads.ts'), 'utf8')).not.toContain('eta');

    await runCli(['types'], { cwd });
    expect((await runCli(['types', '--check'], { cwd })).status).toBe(0);
    // The call that compiled before now lacks the new field.
    writeFileSync(join(cwd, 'before.ts'), consumer(CORRECT));
    writeFileSync(join(cwd, 'after.ts'), consumer(`${CORRECT.slice(0, -2)}, eta: 'Tuesday' }`));
    const errors = await tscStrict(cwd, ['before.ts', 'after.ts']);
    expect(errors['before.ts']?.join('\n')).toMatch(/TS2741: Property 'eta' is missing/);
    expect(errors['after.ts']).toEqual([]);
  }, 120_000);

  it('--format json-schema and --out; invalid definitions write nothing (exit 3)', async () => {
    const cwd = makeExampleProject();
    const schema = await runCli(['types', '--format', 'json-schema', '--out', 'gen/payloads.json'], { cwd });
    expect(schema.stdout).toBe('wrote gen/payloads.json (9 workflows)\n');
    const document = JSON.parse(readFileSync(join(cwd, 'gen/payloads.json'), 'utf8'));
    expect(document.$defs['order-shipped'].required).toEqual([
      'orderNumber',
      'carrier',
      'items',
      'trackingUrl',
    ]);
    expect(
      (await runCli(['types', '--format', 'json-schema', '--out', 'gen/payloads.json', '--check'], { cwd }))
        .status,
    ).toBe(0);

    const broken = makeProject({ 'workflows/a.yaml': 'name: a\nsteps: nope\n' });
    const failed = await runCli(['types'], { cwd: broken });
    expect(failed.stderr).toMatch(/^wfsync: \d+ problems? in the definitions; no types were written\n/);
    expect(failed.status).toBe(3);
    const usage = await runCli(['types', '--format', 'yaml'], { cwd });
    expect(usage.status).toBe(64);
  });

  it('a hostile trigger identifier stays a string: the file compiles and declares that one key', async () => {
    const identifier = 'x"]: string; }; export const pwned = 1; declare const y: { "';
    const cwd = makeProject({
      'wfsync.config.yaml': 'rules:\n  identifier-format: off\n  identifier-name-mismatch: off\n',
      'workflows/a.yaml': [
        'name: hostile',
        'steps:',
        '  - name: inbox',
        '    template: { type: in_app, content: "Hi {{who}}" }',
        'triggers:',
        `  - { type: event, identifier: ${JSON.stringify(identifier)}, variables: [{ name: who }] }`,
        '',
      ].join('\n'),
    });
    const written = await runCli(['types'], { cwd });
    expect(written.stderr).toBe('');
    expect(written.status).toBe(0);
    writeFileSync(
      join(cwd, 'use.ts'),
      [
        "import type { WorkflowIdentifier, WorkflowPayloads } from './wfsync-payloads.js';",
        "import * as generated from './wfsync-payloads.js';",
        `export const id: WorkflowIdentifier = ${JSON.stringify(identifier)};`,
        `export const payload: WorkflowPayloads[typeof id] = { who: 'Ada' };`,
        // Nothing but types came out: the module has no runtime export to reach.
        'export const none: Record<string, never> = generated;',
        '',
      ].join('\n'),
    );
    const errors = await tscStrict(cwd, ['use.ts']);
    expect(errors).toEqual({ 'use.ts': [] });
  }, 120_000);
});
