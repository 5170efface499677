/**
 * `wfsync preview --serve` in a real headless Chromium (Debian's chromium, driven by puppeteer-core): the page lists
 * the workflows, a template's script and event handlers never run, remote images load only when allowed, the payload
 * editor renders again, and saving a definition (or a file it includes) repaints the page, a broken save showing its
 * error in place until fixed. Screenshots go to reports/preview-screenshots/ (git-ignored); the picture in
 * docs/commands/preview.md is taken here (test/e2e/doc-images.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_VIEWPORT, docImage } from './doc-images.js';
import { makeExampleProject } from './helpers.js';
import {
  CHROMIUM,
  chromiumMissing,
  type Served,
  screenshotPath,
  startServe,
  startWitness,
} from './preview-helpers.js';

// The callbacks given to puppeteer run in the browser (it serialises them): `document` is the browser's there.
// biome-ignore lint/suspicious/noExplicitAny: the browser's global, loosely typed on this side
declare const document: any;
type Field = { value: string };

const missing = chromiumMissing();
if (missing) console.log(`skipped: ${missing}`);

const HOSTILE_YAML = `name: hostile mail
steps:
  - name: hostile email
    template:
      type: email
      contentType: customHtml
      subject: Hello {{name}}
      senderName: Test
      content: { file: ./hostile.email.html }
  - name: hostile sms
    template:
      type: sms
      content: "Hi {{name}} <b>not bold</b>"
triggers:
  - type: event
    identifier: hostile-mail
    variables:
      - { name: name, type: String }
`;

function hostileHtml(port: number): string {
  return [
    '<p id="marker">Hello {{name}}</p>',
    `<script>document.body.setAttribute('data-pwned', 'script'); fetch('http://127.0.0.1:${port}/script');</script>`,
    `<img src="missing.png" onerror="document.body.setAttribute('data-pwned', 'onerror'); new Image().src = 'http://127.0.0.1:${port}/onerror';">`,
    `<img id="remote" src="http://127.0.0.1:${port}/remote.png" alt="remote">`,
    '',
  ].join('\n');
}

/**
 * How many times each of the selected file's errors (as /api/render gives them: the file's, or the workflow's with its
 * render findings) appears on the page, by its message and by its `file:line:col`, and how many times each failing
 * step's own error does: a broken file's errors stand in place of its steps, a failing step's in its box, once.
 */
async function shownOnce(page: Page): Promise<{ errors: number; counts: number[][]; stepErrors: number[] }> {
  return page.evaluate(async () => {
    const file = document.querySelector('#preview section').dataset.file;
    const res = await fetch('/api/render', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file }),
    });
    type Shown = { file: string; line: number; column: number; message: string; severity: string };
    const answer = (await res.json()) as {
      diagnostics: Shown[];
      workflow?: { diagnostics: Shown[]; steps: Array<{ error?: string }> };
    };
    const text: string = document.querySelector('#preview').textContent;
    const count = (needle: string) => text.split(needle).length - 1;
    const errors = (answer.workflow?.diagnostics ?? answer.diagnostics).filter((d) => d.severity === 'error');
    return {
      errors: errors.length,
      counts: errors.map((d) => [count(d.message), count(`${d.file}:${d.line}:${d.column}`)]),
      stepErrors: (answer.workflow?.steps ?? []).flatMap((step) =>
        step.error === undefined ? [] : [count(step.error)],
      ),
    };
  });
}

describe.skipIf(missing !== undefined)('preview page in headless Chromium', () => {
  let browser: Browser;
  let witness: Awaited<ReturnType<typeof startWitness>>;
  let dir: string;
  let served: Served;

  beforeAll(async () => {
    witness = await startWitness();
    dir = makeExampleProject({
      'workflows/hostile.yaml': HOSTILE_YAML,
      'workflows/hostile.email.html': hostileHtml(witness.port),
    });
    served = await startServe(dir);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await witness?.close();
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    await page.goto(url);
    await page.waitForSelector('#preview section.workflow');
    return page;
  }

  async function choose(page: Page, file: string): Promise<void> {
    const before = await renders(page);
    await page.click(`button.workflow-link[data-file="${file}"]`);
    await page.waitForFunction((n) => Number(document.body.dataset.renders) > n, {}, before);
    await page.waitForSelector(`#preview section[data-file="${file}"]`);
  }

  const renders = (page: Page) => page.evaluate(() => Number(document.body.dataset.renders ?? 0));

  it('lists every workflow with its steps, and shows each kind of step', async () => {
    const page = await open(served.url);
    const files = await page.$$eval('button.workflow-link', (buttons) => buttons.map((b) => b.dataset.file));
    expect(files).toEqual([
      'workflows/appointment-reminder.yaml',
      'workflows/comment-mention.yaml',
      'workflows/deployment-failed.yaml',
      'workflows/hostile.yaml',
      'workflows/invoice-overdue.yaml',
      'workflows/monthly-usage-report.yaml',
      'workflows/order-shipped.yaml',
      'workflows/password-reset.yaml',
      'workflows/trial-ending.yaml',
      'workflows/weekly-activity-digest.yaml',
    ]);
    await choose(page, 'workflows/order-shipped.yaml');
    const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
    await frame.waitForSelector('li');
    expect(await frame.$$eval('li', (items) => items.map((li) => li.textContent?.trim()))).toEqual([
      '42 × Ada Lovelace',
      '43 × Grace Hopper',
    ]);
    expect(await page.$eval('.inbox .body', (e) => e.textContent)).toBe(
      'Order 1042 has shipped with Sample carrier.',
    );
    await page.screenshot({ path: screenshotPath('order-shipped-email-and-in-app'), fullPage: true });
    await choose(page, 'workflows/appointment-reminder.yaml');
    expect(await page.$eval('.phone .bubble', (e) => e.textContent)).toContain('Reminder: ');
    expect(await page.$eval('.phone .notification .title', (e) => e.textContent)).toBe(
      'Upcoming appointment',
    );
    await page.screenshot({ path: screenshotPath('appointment-reminder-sms-and-push'), fullPage: true });
    await page.close();
  });

  it("the docs picture: the repository's example workflows, order-shipped selected, its email rendered", async () => {
    const plain = await startServe(makeExampleProject());
    try {
      const page = await browser.newPage();
      await page.setViewport(DOC_VIEWPORT);
      await page.goto(plain.url);
      await page.waitForSelector('#preview section.workflow');
      await page.waitForFunction(() => document.getElementById('live')?.textContent !== 'connecting…');
      await choose(page, 'workflows/order-shipped.yaml');
      const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
      await frame.waitForSelector('li');
      expect(await page.$$eval('button.workflow-link', (buttons) => buttons.length)).toBe(9);
      expect(await page.$eval('.inbox .body', (e) => e.textContent)).toBe(
        'Order 1042 has shipped with Sample carrier.',
      );
      await docImage(page, 'body', 'preview-page', DOC_VIEWPORT.height);
      await page.close();
    } finally {
      await plain.stop();
    }
  });

  it("never runs a template's script or event handler, never loads a remote image, and shows markup in texts as text", async () => {
    const page = await open(served.url);
    await choose(page, 'workflows/hostile.yaml');
    const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
    await frame.waitForSelector('#marker');
    expect(await frame.$eval('#marker', (e) => e.textContent)).toBe('Hello Ada Lovelace');
    // The image that fails to load has fired its error by now (a data: URL could not, a missing one must).
    await frame.waitForFunction(() =>
      [...document.images].every((img: { complete: boolean }) => img.complete),
    );
    expect(await frame.evaluate(() => document.body.getAttribute('data-pwned'))).toBeNull();
    expect(await page.evaluate(() => document.body.getAttribute('data-pwned'))).toBeNull();
    expect(
      await page.$eval('iframe.email-body', (f) => [f.getAttribute('sandbox'), f.sandbox.length]),
    ).toEqual(['', 0]);
    expect(await page.$eval('.phone .bubble', (e) => [e.textContent, e.querySelector('b')])).toEqual([
      'Hi Ada Lovelace <b>not bold</b>',
      null,
    ]);
    await page.screenshot({ path: screenshotPath('hostile-email-sandboxed'), fullPage: true });
    await page.close();
    expect(witness.hits).toEqual([]);
  });

  it('loads remote images with --allow-images, and still runs no script', async () => {
    const allowing = await startServe(dir, ['--allow-images']);
    try {
      const page = await open(allowing.url);
      await choose(page, 'workflows/hostile.yaml');
      const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
      await frame.waitForFunction(() => document.getElementById('remote')?.complete);
      expect(witness.hits).toEqual(['/remote.png']);
      expect(await frame.evaluate(() => document.body.getAttribute('data-pwned'))).toBeNull();
      await page.close();
    } finally {
      await allowing.stop();
      witness.hits.length = 0;
    }
  });

  it('renders again as the payload is edited, and says inline when it is not JSON', async () => {
    const page = await open(served.url);
    await choose(page, 'workflows/appointment-reminder.yaml');
    const payload = JSON.parse(await page.$eval('#payload', (e) => (e as unknown as Field).value));
    expect(payload).toHaveProperty('serviceName');
    await page.$eval('#payload', (e) => {
      (e as unknown as Field).value = '';
    });
    await page.type('#payload', '{"serviceName": "Dentist", "appointmentTime": "9:30"');
    await page.waitForFunction(() =>
      document.getElementById('payload-error')?.textContent?.startsWith('Not JSON'),
    );
    const before = await renders(page);
    await page.type('#payload', '}');
    await page.waitForFunction((n) => Number(document.body.dataset.renders) > n, {}, before);
    expect(await page.$eval('#payload-error', (e) => e.textContent)).toBe('');
    expect(await page.$eval('.phone .bubble', (e) => e.textContent)).toBe(
      'Reminder: Dentist with  at 9:30. Reply C to cancel.',
    );
    await page.screenshot({ path: screenshotPath('payload-editor'), fullPage: true });
    await page.close();
  });

  it('repaints when a definition or an included file is saved; a broken save shows its error in place until fixed', async () => {
    const page = await open(served.url);
    await choose(page, 'workflows/hostile.yaml');
    const version = () => page.evaluate(() => Number(document.body.dataset.version));
    const waitVersion = (n: number) =>
      page.waitForFunction((v) => Number(document.body.dataset.version) > v, { timeout: 15_000 }, n);
    const definition = join(dir, 'workflows/hostile.yaml');
    const original = readFileSync(definition, 'utf8');

    let v = await version();
    writeFileSync(definition, original.replace('Hi {{name}}', 'Hello again {{name}}'));
    await waitVersion(v);
    expect(await page.$eval('.phone .bubble', (e) => e.textContent)).toBe(
      'Hello again Ada Lovelace <b>not bold</b>',
    );

    v = await version();
    writeFileSync(join(dir, 'workflows/hostile.email.html'), '<p id="marker">Changed {{name}}</p>\n');
    await waitVersion(v);
    const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
    await frame.waitForSelector('#marker');
    expect(await frame.$eval('#marker', (e) => e.textContent)).toBe('Changed Ada Lovelace');

    v = await version();
    writeFileSync(definition, original.replace('  - name: hostile sms', '  - name: [broken'));
    await waitVersion(v);
    const error = await page.$eval('[data-role="file-error"]', (e) => e.textContent);
    expect(error).toMatch(/^workflows\/hostile\.yaml:\d+:\d+ .+ \[yaml-syntax\]$/);
    expect(await shownOnce(page)).toEqual({ errors: 1, counts: [[1, 1]], stepErrors: [] });
    expect(
      await page.$eval('button.workflow-link[data-file="workflows/hostile.yaml"]', (b) => b.className),
    ).toContain('broken');
    await page.screenshot({ path: screenshotPath('broken-definition-in-place'), fullPage: true });

    v = await version();
    writeFileSync(definition, original.replace('      type: sms', '      type: sms\n      colour: red'));
    await waitVersion(v);
    expect(await page.$eval('[data-role="file-error"]', (e) => e.textContent)).toMatch(
      /^workflows\/hostile\.yaml:\d+:\d+ .+ \[schema-[a-z-]+\]$/,
    );
    expect(await shownOnce(page)).toEqual({ errors: 1, counts: [[1, 1]], stepErrors: [] });

    v = await version();
    writeFileSync(definition, original);
    await waitVersion(v);
    expect(await page.$('[data-role="file-error"]')).toBeNull();
    expect(await page.$eval('.phone .bubble', (e) => e.textContent)).toBe('Hi Ada Lovelace <b>not bold</b>');
    await page.close();
  });

  it("shows a failing step's error once, in the step's box, not again in the list above", async () => {
    const page = await open(served.url);
    await choose(page, 'workflows/hostile.yaml');
    const version = () => page.evaluate(() => Number(document.body.dataset.version));
    const waitVersion = (n: number) =>
      page.waitForFunction((v) => Number(document.body.dataset.version) > v, { timeout: 15_000 }, n);
    const definition = join(dir, 'workflows/hostile.yaml');
    const original = readFileSync(definition, 'utf8');
    const boxOf = (index: number) =>
      page.$eval(`[data-step="${index}"] [data-role="step-error"]`, (e) => e.textContent as string);
    try {
      // A date pattern the service refuses: the renderer's located finding explains the failure.
      let v = await version();
      writeFileSync(definition, original.replace('Hi {{name}}', "Hi {{dateFormat '2024-01-02' 'YYYY-DD'}}"));
      await waitVersion(v);
      expect(await boxOf(1)).toMatch(
        /^workflows\/hostile\.yaml:\d+:\d+ .*date-fns refuses the pattern `YYYY-DD`.* \[render-date-format\]$/,
      );
      expect(await shownOnce(page)).toEqual({ errors: 1, counts: [[1, 1]], stepErrors: [0] });
      expect(await page.$('ul.diagnostics')).toBeNull();
      await page.screenshot({ path: screenshotPath('failing-step-in-place'), fullPage: true });
      // A step the engine fails on with no located finding: its error, once, with where it is.
      v = await version();
      writeFileSync(definition, original.replace('Hi {{name}}', 'Hi {{#each}}{{/each}}'));
      await waitVersion(v);
      expect(await boxOf(1)).toMatch(
        /^workflows\/hostile\.yaml:\d+:\d+ .*Must pass iterator to #each \[render-failed\]$/,
      );
      expect(await shownOnce(page)).toEqual({ errors: 1, counts: [[1, 1]], stepErrors: [1] });
      // The other step still renders.
      const frame = await (await page.waitForSelector('iframe.email-body'))!.contentFrame();
      await frame.waitForSelector('#marker');
    } finally {
      writeFileSync(definition, original);
    }
    await page.close();
  });
});
