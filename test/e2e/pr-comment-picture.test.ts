/**
 * The pull-request comment as a reviewer sees it, in headless Chromium: the comment `plan --base main --format
 * markdown` writes for issue 13's pull request (one workflow changed locally, one drifted, one to create, one in
 * sync), rendered as GitHub roughly renders it (test/e2e/github-comment-page.ts). The page must show what the picture
 * in the docs shows: the title, the count table, the workflows that need a person open, the create collapsed, the
 * next steps, and none of the hidden markers; and a workflow's flowchart, opened, drawn by Mermaid with every step.
 * The pictures, docs/images/pr-comment.png and docs/images/flowchart.png, are written only with
 * WFSYNC_UPDATE_DOC_IMAGES=1 (npm run docs:images; test/e2e/doc-images.ts).
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_VIEWPORT, docImage } from './doc-images.js';
import { drawMermaid, githubCommentPage } from './github-comment-page.js';
import { startTarget } from './plan-sync-target.js';
import { CHROMIUM, chromiumMissing } from './preview-helpers.js';
import { pullRequest } from './pull-request-scenario.js';

// biome-ignore lint/suspicious/noExplicitAny: the browser's global, loosely typed on this side
declare const document: any;

const missing = chromiumMissing();
if (missing) console.log(`skipped: ${missing}`);

/** A fixed stamp, so the picture does not change from run to run: a commit and 2026-01-15 09:30 UTC. */
const STAMP = { GITHUB_SHA: '3f9c2a17be0d4c6e8a1b2c3d4e5f60718293a4b5', SOURCE_DATE_EPOCH: '1768469400' };

/** The comment with the emulator's port (a free one, new each run) written as one port, for the same reason. */
const samePort = (markdown: string) =>
  markdown.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:4010');

describe.skipIf(missing !== undefined)('the pull-request comment in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the docs picture: the comment on a pull request that changes one workflow, adds one, while one drifted', async () => {
    const { target } = await pullRequest();
    const plan = await target.run(['plan', '--base', 'main', '--format', 'markdown'], STAMP);
    expect(plan.status, plan.stderr).toBe(6);

    const page = await browser.newPage();
    await page.setViewport(DOC_VIEWPORT);
    await page.setContent(githubCommentPage(samePort(plan.stdout), 'github-actions bot'));
    const shown = await page.evaluate(() => {
      const body = document.querySelector('.markdown-body');
      const details: Array<{ open: boolean; querySelector: (s: string) => { textContent: string } }> = [
        ...body.querySelectorAll('details'),
      ];
      return {
        text: body.textContent as string,
        heading: body.querySelector('h1, h2, h3')?.textContent as string | undefined,
        tables: body.querySelectorAll('table').length as number,
        open: details.filter((d) => d.open).map((d) => d.querySelector('summary').textContent as string),
        closed: details.filter((d) => !d.open).map((d) => d.querySelector('summary').textContent as string),
      };
    });
    expect(shown.heading).toMatch(/wfsync plan/);
    expect(shown.text).toContain('3f9c2a1');
    expect(shown.text).toContain('2026-01-15');
    expect(shown.text).not.toContain('wfsync-plan');
    expect(shown.tables).toBeGreaterThan(0);
    expect(shown.open.join('\n')).toMatch(/order-shipped/);
    expect(shown.open.join('\n')).toMatch(/trial-ending/);
    expect(shown.closed.join('\n')).toMatch(/password-changed/);
    expect(shown.text).toContain('Next steps');
    await docImage(page, '.comment', 'pr-comment', 1300);
    await page.close();
  });

  it('the docs picture: the flowchart of a workflow to create, drawn by Mermaid as GitHub draws it', async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--format', 'markdown', 'workflows/invoice-overdue.yaml'], STAMP);
    expect(plan.status, plan.stderr).toBe(2);

    const page = await browser.newPage();
    await page.setViewport(DOC_VIEWPORT);
    await page.setContent(githubCommentPage(samePort(plan.stdout), 'github-actions bot'));
    const flowchart = 'details.flowchart-shown';
    const opened = await page.evaluate(() => {
      const chart = [...document.querySelectorAll('details')].find(
        (d: { querySelector: (s: string) => { textContent: string } | null }) =>
          d.querySelector('summary')?.textContent.startsWith('Flowchart'),
      );
      if (chart === undefined) return undefined;
      chart.open = true;
      chart.className = 'flowchart-shown';
      for (let up = chart.parentElement; up !== null; up = up.parentElement)
        if (up.tagName === 'DETAILS') up.open = true;
      return chart.querySelector('summary').textContent as string;
    });
    expect(opened).toBe('Flowchart (3 steps)');
    await drawMermaid(page, flowchart);
    const labels = await page.$eval(`${flowchart} svg`, (svg) => svg.textContent as string);
    for (const label of [
      'trigger',
      'invoice-overdue',
      'overdue notice',
      'final reminder sms',
      'account team alert',
    ])
      expect(labels).toContain(label);
    expect(labels).toContain('payload.reminderLevel');
    await docImage(page, `${flowchart} svg`, 'flowchart');
    await page.close();
  });
});
