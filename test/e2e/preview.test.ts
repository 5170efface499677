import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { makeExampleProject, makeProject, runCli } from './helpers.js';
import { RULE_CONTROL_FINDINGS, RULE_CONTROL_PROJECT } from './preview-helpers.js';

const SMS = `name: sms only
steps:
  - name: text
    template:
      type: sms
      content: "Hi {{name}}, you owe {{amount}}"
triggers:
  - type: event
    identifier: sms-only
    variables:
      - { name: name, type: String }
      - { name: amount, type: String }
`;

const DIGEST = `name: digest mail
steps:
  - name: collect
    template:
      type: digest
    metadata:
      type: regular
      unit: hours
      amount: 1
  - name: summary
    template:
      type: sms
      content: "{{step.total_count}} events: {{#each step.events}}{{title}};{{/each}}"
triggers:
  - type: event
    identifier: digest-mail
    variables:
      - { name: title, type: String }
`;

describe('wfsync preview (CLI)', () => {
  it('prints each step as the recipient sees it, with sample data', async () => {
    const dir = makeExampleProject();
    const result = await runCli(['preview', 'order-shipped'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'order-shipped (workflows/order-shipped.yaml)\n\n── #0 shipping email · email ──',
    );
    expect(result.stdout).toContain('   Subject:   Your order 1042 has shipped');
    expect(result.stdout).toContain('   • 42 × Ada Lovelace');
    expect(result.stdout).toContain('   Track your parcel (https://example.com/tracking/1)');
    expect(result.stdout).toContain('── #1 shipping notice · in_app ──');
    expect(result.stdout).toContain('   Opens:     /orders/1042/tracking');
  });

  it('--format json prints the preview document (its schema checked by runCli), one step with --step', async () => {
    const dir = makeProject({ 'workflows/sms.yaml': SMS, 'pay.json': '{"name": "Bo", "amount": 12.5}' });
    const result = await runCli(
      ['preview', 'workflows/sms.yaml', '--payload', 'pay.json', '--step', 'text', '--format', 'json'],
      {
        cwd: dir,
      },
    );
    expect(result.status).toBe(0);
    const doc = parseJsonOutput('preview', result.stdout);
    expect(doc.workflows).toHaveLength(1);
    expect(doc.workflows[0]).toMatchObject({
      identifier: 'sms-only',
      file: 'workflows/sms.yaml',
      name: 'sms only',
    });
    expect(doc.workflows[0].steps).toEqual([
      {
        index: 0,
        name: 'text',
        type: 'sms',
        content: 'Hi Bo, you owe 12.5',
        contentType: 'text',
        payload: { name: 'Bo', amount: 12.5 },
      },
    ]);
  });

  it('--events gives the events a digest collected; --subscriber the subscriber', async () => {
    const dir = makeProject({
      'workflows/digest.yaml': DIGEST,
      'events.json': '[{"title": "one"}, {"title": "two"}]',
      'sub.json': '{"firstName": "Cy"}',
    });
    const result = await runCli(
      ['preview', 'digest-mail', '--events', 'events.json', '--subscriber', 'sub.json', '--format', 'json'],
      { cwd: dir },
    );
    expect(result.status).toBe(0);
    const doc = parseJsonOutput('preview', result.stdout);
    expect(doc.workflows[0].subscriber).toEqual({ firstName: 'Cy' });
    expect(doc.workflows[0].events).toEqual([{ title: 'one' }, { title: 'two' }]);
    expect(doc.workflows[0].steps[1].content).toBe('2 events: one;two;');
  });

  // The service formats with date-fns 2.29.3 in its processes' zone, UTC (docs/rendering.md); the expected text is what
  // its CompileTemplate gives for this pattern and date (test/fixtures/render-corpus/dates-week.json has the tokens).
  it('formats dates with date-fns, week and quarter tokens and quoted text included, in UTC whatever TZ is', async () => {
    const dir = makeProject({
      'workflows/when.yaml': `name: when
steps:
  - name: text
    template:
      type: sms
      content: "{{dateFormat at \\"'Week' I, RRRR QQQ EEE HH:mm xxx\\"}}"
triggers:
  - type: event
    identifier: when
    variables:
      - { name: at, type: String }
`,
      'pay.json': '{"at": "2024-01-01T00:30:00Z"}',
    });
    for (const TZ of ['UTC', 'America/New_York', 'Asia/Kolkata', undefined]) {
      const result = await runCli(['preview', 'when', '--payload', 'pay.json', '--format', 'json'], {
        cwd: dir,
        env: { TZ },
      });
      expect(result.status, `${TZ}: ${result.stderr}`).toBe(0);
      const doc = parseJsonOutput('preview', result.stdout);
      expect(doc.workflows[0].steps[0].content, String(TZ)).toBe('Week 1, 2024 Q1 Mon 00:30 +00:00');
      expect(doc.workflows[0].diagnostics).toEqual([]);
    }
  });

  // send-message.usecase.ts (buildCompileContext) at novu@74a2e9a6 adds `actor` only when the trigger names one, over
  // the payload (send-message.base.ts getCompilePayload): a payload `actor` renders when the trigger names none.
  it('renders a payload field named `actor` as the service does for a trigger that names no actor', async () => {
    const dir = makeProject({
      'workflows/inbox.yaml': `name: inbox
steps:
  - name: note
    template:
      type: in_app
      content: "{{actor}} / {{actor.firstName}}"
triggers:
  - type: event
    identifier: inbox
    variables: []
`,
      'pay.json': '{"actor": "Bob"}',
    });
    const sample = await runCli(['preview', 'inbox', '--format', 'json'], { cwd: dir });
    expect(parseJsonOutput('preview', sample.stdout).workflows[0].steps[0].content).toBe(
      '[object Object] / Grace',
    );
    const given = await runCli(['preview', 'inbox', '--payload', 'pay.json', '--format', 'json'], {
      cwd: dir,
    });
    expect(given.status).toBe(0);
    expect(parseJsonOutput('preview', given.stdout).workflows[0].steps[0].content).toBe('Bob / ');
  });

  it('--preview picks a named payload from <definition>.previews.json', async () => {
    const dir = makeProject({
      'workflows/sms.yaml': SMS,
      'workflows/sms.previews.json': JSON.stringify({
        previews: { big: { payload: { name: 'Di', amount: 1e6 } } },
      }),
    });
    const result = await runCli(['preview', 'sms-only', '--preview', 'big'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('sms-only (workflows/sms.yaml) · preview "big"');
    expect(result.stdout).toContain('   Hi Di, you owe 1000000');
    const unknown = await runCli(['preview', 'sms-only', '--preview', 'bgi'], { cwd: dir });
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toContain(
      '--preview "bgi": no such named payload in the previews files (<definition>.previews.json); known: big',
    );
  });

  it('--format html writes one standalone file: the email in a sandboxed iframe, no script', async () => {
    const dir = makeExampleProject();
    const result = await runCli(['preview', 'order-shipped', '--format', 'html', '--out', 'preview.html'], {
      cwd: dir,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('wrote preview.html\n');
    const html = readFileSync(join(dir, 'preview.html'), 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<iframe class="email-body" sandbox=""');
    expect(html).not.toMatch(/<script/i);
  });

  it('exits 3 with the step in error and file:line:col when the service would fail to render it', async () => {
    const dir = makeProject({ 'workflows/sms.yaml': SMS.replace('Hi {{name}}', 'Hi {{shout name}}') });
    const result = await runCli(['preview', 'sms-only'], { cwd: dir });
    expect(result.status).toBe(3);
    expect(result.stdout).toContain('✖ the service would fail to render this step: Missing helper: "shout"');
    expect(result.stdout).toMatch(/workflows\/sms\.yaml:6:\d+ error .*shout/);
  });

  it("honours wfsync-disable comments and the config's overrides as validate does (json and human)", async () => {
    const cwd = makeProject(RULE_CONTROL_PROJECT);
    const validate = parseJsonOutput(
      'validate',
      (await runCli(['validate', '--format', 'json'], { cwd })).stdout,
    ) as {
      diagnostics: Array<{ file: string; code: string; severity: string; line: number }>;
    };
    const byFile = (list: Array<{ file: string; code: string; severity: string; line: number }>) =>
      Object.fromEntries(
        Object.keys(RULE_CONTROL_FINDINGS).map((file) => [
          file,
          list.filter((d) => d.file === file).map((d) => `${d.code}:${d.severity}:${d.line}`),
        ]),
      );
    expect(byFile(validate.diagnostics)).toEqual(RULE_CONTROL_FINDINGS);
    const json = await runCli(['preview', '--format', 'json'], { cwd });
    expect(json.status).toBe(3); // strict/s.yaml's finding is an error there
    const document = parseJsonOutput('preview', json.stdout) as {
      workflows: Array<{
        diagnostics: Array<{ file: string; code: string; severity: string; line: number }>;
      }>;
    };
    expect(byFile(document.workflows.flatMap((w) => w.diagnostics))).toEqual(RULE_CONTROL_FINDINGS);
    const human = await runCli(['preview'], { cwd, env: { NO_COLOR: '1' } });
    const headers = human.stdout.split('\n').filter((l) => /^workflows\/\S+:\d+:\d+ /.test(l));
    expect(headers.map((l) => l.replace(/ (error|warning) .* \[/, ' $1 ['))).toEqual([
      'workflows/plain.yaml:6:22 warning [render-empty]',
      'workflows/strict/s.yaml:6:22 error [render-empty]',
    ]);
  });

  it('exits 3 with file:line:col for a template that does not compile', async () => {
    const dir = makeProject({ 'workflows/sms.yaml': SMS.replace('Hi {{name}}', 'Hi {{#if name}}') });
    const result = await runCli(['preview', 'workflows/sms.yaml'], { cwd: dir });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('problem in the definitions; nothing was rendered');
    expect(result.stderr).toMatch(/workflows\/sms\.yaml:6:\d+ error/);
  });

  it('exits 3 with file:line:col for a payload file that is not JSON, 64 for one that does not exist', async () => {
    const dir = makeProject({ 'workflows/sms.yaml': SMS, 'bad.json': '{"name": "x",\n  "amount": }\n' });
    const bad = await runCli(['preview', 'sms-only', '--payload', 'bad.json', '--format', 'json'], {
      cwd: dir,
    });
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain("bad.json:2:13 error not JSON: Unexpected token '}' [data-not-json]");
    const missing = await runCli(['preview', 'sms-only', '--payload', 'nope.json'], { cwd: dir });
    expect(missing.status).toBe(64);
    expect(missing.stderr).toBe('wfsync: --payload nope.json: no such file\n');
  });

  it('exits 64 for an unknown step or workflow, naming the known ones (closest first)', async () => {
    const dir = makeExampleProject();
    const step = await runCli(['preview', 'order-shipped', '--step', 'shiping email'], { cwd: dir });
    expect(step.status).toBe(64);
    expect(step.stderr).toBe(
      'wfsync: --step "shiping email": workflow order-shipped has no such step (its steps: 0 "shipping email", 1 "shipping notice")\n',
    );
    const workflow = await runCli(['preview', 'ordr-shipped'], { cwd: dir });
    expect(workflow.status).toBe(64);
    expect(workflow.stderr).toMatch(
      /^wfsync: no workflow "ordr-shipped" \(neither a file nor a trigger identifier\); known workflows: order-shipped, /,
    );
  });

  it('--serve exits 64 naming the port when it is in use', async () => {
    const dir = makeExampleProject();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['preview', '--serve', '--port', String(port)], { cwd: dir });
      expect(result.status).toBe(64);
      expect(result.stderr).toBe(
        `wfsync: port ${port} on 127.0.0.1 is in use; pass another with --port (or --port 0 for any free one)\n`,
      );
    } finally {
      blocker.close();
    }
  });
});
