import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { useTempProjects } from '../helpers/temp-project.js';
import { ROOT, runCli } from './helpers.js';

/**
 * Template text kept in files of its own (`content: {file: ./emails/order-shipped.html}`), through the built CLI: the
 * local target syncs and plans the included text, an edit to the HTML alone shows as changed locally with the HTML
 * in the diff, a broken reference stops sync before any request, and pull writes the service's text back into the
 * files (or, with --split-content, into new ones) so the plan is clean afterwards.
 */

const FIXTURE = join(ROOT, 'test/fixtures/includes/project');
const HTML = 'workflows/emails/order-shipped.html';
const SUBJECT = 'workflows/emails/order-shipped.subject.txt';
const DEFINITION = 'workflows/order-shipped.yaml';

const makeProject = useTempProjects('wfsync-e2e-');
const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

/** A temp copy of the includes project (target `local` by default), with `config` as its wfsync.config.yaml if given. */
function project(config?: string): string {
  const dir = makeProject();
  cpSync(FIXTURE, dir, { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, 'wfsync.config.yaml'), config);
  return dir;
}

const read = (cwd: string, file: string) => readFileSync(join(cwd, file), 'utf8');

/** Nothing left in workflows/ (the directory itself stays: plan and pull need it). */
function emptyWorkflows(cwd: string): void {
  rmSync(join(cwd, 'workflows'), { recursive: true });
  mkdirSync(join(cwd, 'workflows'));
}

describe('file references on the local target', () => {
  it('sync creates the included text; an edit to the HTML file alone plans as an update, which sync sends', async () => {
    const cwd = project();
    expect(await runCli(['validate'], { cwd })).toMatchObject({ status: 0, stdout: '✔ 1 file valid\n' });
    const sync = await runCli(['sync', '--quiet'], { cwd });
    expect(sync.stdout).toContain('Sync: 1 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    // What the local service stores is the files' text, not the reference.
    const stored = JSON.parse(read(cwd, '.wfsync/local-service.json')) as unknown;
    const html = read(cwd, HTML);
    expect(JSON.stringify(stored)).toContain(JSON.stringify(html.slice(0, -1)));
    expect(JSON.stringify(stored)).toContain('"subject":"Your order {{orderNumber}} has shipped"');
    expect(JSON.stringify(stored)).not.toContain('order-shipped.html');

    const clean = await runCli(['plan', '--quiet'], { cwd });
    expect(clean.stdout).toContain('No changes. 1 workflow in sync.');
    expect(clean.status).toBe(0);

    writeFileSync(join(cwd, HTML), html.replace('will deliver', 'is delivering'));
    const changed = await runCli(['plan', '--quiet'], { cwd });
    // The local target allows updates: the edit is one sync away.
    expect(changed.status).toBe(2);
    expect(changed.stdout).toContain('↑ update  order-shipped  workflows/order-shipped.yaml');
    // The diff shows the resolved text, line by line.
    expect(changed.stdout).toContain('\n    -            <p>{{carrier}} will deliver:</p>\n');
    expect(changed.stdout).toContain('\n    +            <p>{{carrier}} is delivering:</p>\n');
    expect(changed.stdout).toContain('Plan: 0 to create, 1 to update, 0 in sync.');

    const update = await runCli(['sync', '--quiet'], { cwd });
    expect(update.status).toBe(0);
    expect(update.stdout).toContain('1 updated');
    const updated = read(cwd, '.wfsync/local-service.json');
    expect(updated).toContain('is delivering:');
    // The service's copy is the file's again (the store also keeps the pending change's history).
    expect((await runCli(['plan', '--quiet'], { cwd })).stdout).toContain('No changes. 1 workflow in sync.');
  });

  it('a reference to a missing file: validate points at it, sync sends nothing', async () => {
    const cwd = project();
    renameSync(join(cwd, HTML), join(cwd, 'workflows/emails/order-shiped.html'));
    const validate = await runCli(['validate'], { cwd });
    expect(validate.status).toBe(3);
    expect(validate.stdout).toBe(
      [
        'workflows/order-shipped.yaml:11:24 error steps[0].template.content: workflows/emails/order-shipped.html ' +
          'does not exist (did you mean "./emails/order-shiped.html"?) [include-not-found]',
        '  10 |       subject: { file: ./emails/order-shipped.subject.txt }',
        '> 11 |       content: { file: ./emails/order-shipped.html }',
        '     |                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^',
        '',
        '✖ 1 problem (1 error, 0 warnings) in 1 of 1 file',
        '',
      ].join('\n'),
    );
    const sync = await runCli(['sync', '--quiet'], { cwd });
    expect(sync.status).toBe(3);
    expect(sync.stderr).toContain('[include-not-found]');
    expect(sync.stdout).toBe('');
  });
});

describe('pull and file references', () => {
  async function devProject(options: { withDefinition: boolean }) {
    const emulator = await startEmulator({ seed: 1 });
    emulators.push(emulator);
    const config = [
      'workflowsDir: workflows',
      'targets:',
      '  dev:',
      `    baseUrl: ${emulator.url}`,
      '    apiKeyEnv: DEV_KEY',
      `    notificationGroupId: ${emulator.notificationGroupId}`,
      '',
    ].join('\n');
    const cwd = project(config);
    const run = (args: string[]) =>
      runCli([...args, '--target', 'dev'], { cwd, env: { DEV_KEY: emulator.apiKey } });
    expect((await run(['sync', '--quiet'])).status).toBe(0);
    if (!options.withDefinition) emptyWorkflows(cwd);
    return { emulator, cwd, run };
  }

  it('writes the dashboard edit into the included files and keeps the definition as it was; plan is clean', async () => {
    const { emulator, cwd, run } = await devProject({ withDefinition: true });
    const definition = read(cwd, DEFINITION);
    const html = read(cwd, HTML).replace('will deliver', 'is delivering');
    emulator.editWorkflow('order-shipped', (w) => {
      const template = w.steps[0]!.template as { content: string; subject: string };
      template.content = html.slice(0, -1);
      template.subject = 'Order {{orderNumber}} is on its way';
    });

    const pull = await run(['pull', 'order-shipped']);
    expect(pull.stderr).toBe('');
    expect(pull.stdout).toBe(
      'pulled order-shipped: 2 fields changed (steps[0].template.content, steps[0].template.subject) → ' +
        `${HTML}, ${SUBJECT}\n`,
    );
    expect(pull.status).toBe(0);
    expect(read(cwd, DEFINITION)).toBe(definition);
    expect(read(cwd, HTML)).toBe(html);
    expect(read(cwd, SUBJECT)).toBe('Order {{orderNumber}} is on its way\n');

    const plan = await run(['plan', '--quiet']);
    expect(plan.stdout).toContain('No changes. 1 workflow in sync.');
    expect(plan.status).toBe(0);
    const again = await run(['pull', 'order-shipped']);
    expect(again.stdout).toBe(`pulled order-shipped: ${DEFINITION} already matches the service\n`);
  });

  it('--split-content writes long text to a new file, for a new definition and for one that had it inline', async () => {
    const { cwd, run } = await devProject({ withDefinition: false });
    const html = read(join(FIXTURE, 'workflows/emails'), 'order-shipped.html');

    const inline = await run(['pull', 'order-shipped']);
    expect(inline.status).toBe(0);
    expect(read(cwd, DEFINITION)).toContain('      content: |-\n        <!doctype html>\n');

    const split = await run(['pull', 'order-shipped', '--split-content', '5']);
    const created = 'workflows/order-shipped.shipping-email.html';
    expect(split.stdout).toBe(
      `pulled order-shipped: 1 field changed (steps[0].template.content) → ${DEFINITION}, ${created}\n`,
    );
    expect(read(cwd, created)).toBe(html);
    expect(read(cwd, DEFINITION)).toContain(
      '      content:\n        file: ./order-shipped.shipping-email.html\n',
    );
    expect((await run(['plan', '--quiet'])).stdout).toContain('No changes. 1 workflow in sync.');

    // A new file gets the reference on one line.
    emptyWorkflows(cwd);
    const fresh = await run(['pull', 'order-shipped', '--split-content', '5']);
    expect(fresh.stdout).toMatch(
      /^pulled order-shipped \(id [0-9a-f]{24}\) → workflows\/order-shipped\.yaml, /,
    );
    expect(read(cwd, DEFINITION)).toContain('      content: { file: ./order-shipped.shipping-email.html }\n');
    expect(read(cwd, created)).toBe(html);
    expect(await runCli(['validate'], { cwd })).toMatchObject({ status: 0 });
    expect((await run(['plan', '--quiet'])).stdout).toContain('No changes. 1 workflow in sync.');
  });
});

describe('findings inside included files', () => {
  const DELAYED_HTML = 'workflows/emails/delayed.html';
  /** A second definition, whose content is a 130-line HTML file. */
  const DELAYED = [
    'name: order delayed',
    'steps:',
    '  - name: delay email',
    '    template:',
    '      type: email',
    '      contentType: customHtml',
    '      subject: Your order is late',
    '      content: { file: ./emails/delayed.html }',
    'triggers:',
    '  - type: event',
    '    identifier: order-delayed',
    '',
  ].join('\n');

  /**
   * The includes project with an undeclared variable in its HTML (saved with CRLF line breaks and a BOM), and a
   * second definition whose HTML has a Handlebars error on line 120.
   */
  function projectWithFindings(): string {
    const cwd = project();
    const html = read(cwd, HTML).replace(
      '<p>{{carrier}} will deliver:</p>',
      '<p>{{carrier}} will deliver: <a href="{{trackingUrl}}">track</a></p>',
    );
    writeFileSync(join(cwd, HTML), `\uFEFF${html.replace(/\n/g, '\r\n')}`);
    writeFileSync(join(cwd, 'workflows/order-delayed.yaml'), DELAYED);
    const lines = Array.from({ length: 130 }, (_, i) => `    <p>Paragraph ${i + 1}</p>`);
    lines[119] = '    <p>{{carrier}} is late{{#if vip}}, sorry{{/fi}}</p>';
    writeFileSync(join(cwd, DELAYED_HTML), `${lines.join('\n')}\n`);
    return cwd;
  }

  const SYNTAX =
    'steps[0].template.content is not valid Handlebars (`{{#if}}` is closed by `{{/fi}}`), so the service would ' +
    'answer 400 "Failed to extract variables": fix the template (included by workflows/order-delayed.yaml at ' +
    'steps[0].template.content).';
  const UNDECLARED =
    '`trackingUrl` is used in steps[0].template.content but not declared in triggers[0].variables; the service ' +
    'will add it to the trigger, so declare it there (type String) (included by workflows/order-shipped.yaml at ' +
    'steps[0].template.content).';
  const SYNTAX_FRAME = [
    '  119 |     <p>Paragraph 119</p>',
    '> 120 |     <p>{{carrier}} is late{{#if vip}}, sorry{{/fi}}</p>',
    '      |                              ^',
  ];

  it('validate names the included file at its line and column, framed from that file', async () => {
    const result = await runCli(['validate'], { cwd: projectWithFindings() });
    expect(result.stdout).toBe(
      [
        `${DELAYED_HTML}:120:30 error ${SYNTAX} [template-syntax]`,
        ...SYNTAX_FRAME,
        '',
        // Line 5 of the CRLF file with a BOM, as an editor counts it.
        `${HTML}:5:45 warning ${UNDECLARED} [variable-undeclared]`,
        '  4 |     <h1>Order {{orderNumber}} is on its way</h1>',
        '> 5 |     <p>{{carrier}} will deliver: <a href="{{trackingUrl}}">track</a></p>',
        '    |                                             ^^^^^^^^^^^',
        '',
        // Two definitions checked, both with a problem: the HTML files are part of them, not files of their own.
        '✖ 2 problems (1 error, 1 warning) in 2 of 2 files',
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(3);
  });

  it('json gives the included file and the position in it, the pointer into the definition, and the definition', async () => {
    const cwd = projectWithFindings();
    const json = await runCli(['validate', '--format', 'json'], { cwd });
    const report = parseJsonOutput('validate', json.stdout) as { summary: unknown; diagnostics: unknown[] };
    expect(report.summary).toEqual({ files: 2, filesWithProblems: 2, errors: 1, warnings: 1, infos: 0 });
    expect(report.diagnostics).toEqual([
      {
        file: DELAYED_HTML,
        line: 120,
        column: 30,
        endLine: 120,
        endColumn: 31,
        severity: 'error',
        code: 'template-syntax',
        message: SYNTAX,
        pointer: '/steps/0/template/content',
        includedBy: 'workflows/order-delayed.yaml',
      },
      {
        file: HTML,
        line: 5,
        column: 45,
        endLine: 5,
        endColumn: 56,
        severity: 'warning',
        code: 'variable-undeclared',
        message: UNDECLARED,
        pointer: '/steps/0/template/content',
        includedBy: DEFINITION,
      },
    ]);
    // JUnit: a test case per definition (the error fails order-delayed's), its lines naming the HTML file.
    const junit = (await runCli(['validate', '--format', 'junit'], { cwd })).stdout;
    expect(junit).toContain('<testsuites name="wfsync validate" tests="2" failures="1" errors="0">');
    expect(junit).toContain(
      `<testcase classname="wfsync.validate" name="workflows/order-delayed.yaml" file="workflows/order-delayed.yaml">\n` +
        `      <failure message="${DELAYED_HTML}:120:30 `,
    );
    // SARIF and GitHub annotations point at the HTML file.
    const sarif = (await runCli(['validate', '--format', 'sarif'], { cwd })).stdout;
    expect(sarif).toContain(`"uri": "${DELAYED_HTML}"`);
    const github = (await runCli(['validate', '--format', 'github'], { cwd })).stdout;
    expect(github).toContain(`::error file=${DELAYED_HTML},line=120,col=30,endLine=120,endColumn=31,`);
  });

  it('every way of running validate gives the same bytes: without the cache, cold and warm', async () => {
    const cwd = projectWithFindings();
    for (const format of ['human', 'json', 'github', 'junit', 'sarif']) {
      const args = ['validate', '--verbose', '--format', format];
      const reference = await runCli(args, { cwd });
      expect(reference.status).toBe(3);
      rmSync(join(cwd, '.wfsync'), { recursive: true, force: true });
      const cold = await runCli([...args, '--cache'], { cwd });
      const warm = await runCli([...args, '--cache'], { cwd });
      // Warm, both outcomes come from the cache: the HTML texts for the frames were read for the hit check.
      expect(warm.stderr).toContain('wfsync: cache: 2 of 2 files unchanged');
      expect(cold.stdout, `${format} cold`).toBe(reference.stdout);
      expect(warm.stdout, `${format} warm`).toBe(reference.stdout);
      expect(warm.status).toBe(3);
    }
  });

  it('plan and sync refuse with the finding framed from the included file', async () => {
    const cwd = projectWithFindings();
    for (const command of ['plan', 'sync']) {
      const result = await runCli([command, '--quiet'], { cwd });
      expect(result.status).toBe(3);
      expect(result.stdout).toBe('');
      // Errors only: the warning in the other HTML file does not stop a plan.
      expect(result.stderr).toBe(
        [
          'wfsync: 1 problem in the definitions; nothing was sent (run "wfsync validate" for the full report)',
          `${DELAYED_HTML}:120:30 error ${SYNTAX} [template-syntax]`,
          ...SYNTAX_FRAME,
          '',
          '',
        ].join('\n'),
      );
    }
  });
});
