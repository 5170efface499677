import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { makeProject, runCli } from './helpers.js';

/**
 * An email's layout is not previewed (the layouts live in the service's environment): every format says so beside
 * the email, naming the `layoutId` when the step has one. The service's CompileEmailTemplate
 * (@novu/application-generic, compile-email-template.usecase.ts, read for this) renders the body, then the layout
 * with the body as its `{{{body}}}`.
 */
const MAIL = `name: mail
steps:
  - name: branded
    template:
      type: email
      subject: Hello
      contentType: customHtml
      layoutId: 65f0c0ffee00000000a0b1c2
      content: "<p>Hi {{name}}</p>"
  - name: plain
    template:
      type: email
      subject: Hello again
      contentType: customHtml
      content: "<p>Bye {{name}}</p>"
  - name: text
    template:
      type: sms
      content: "Hi {{name}}"
triggers:
  - type: event
    identifier: mail
    variables:
      - { name: name, type: String }
`;

const NAMED =
  'not shown: the service puts this body into layout "65f0c0ffee00000000a0b1c2" (wfsync cannot read layouts)';
const DEFAULT =
  "not shown: the service puts this body into the environment's default layout, if it has one (wfsync cannot read layouts)";

describe('preview: email layouts', () => {
  it('human, json and html say the layout is not shown, beside each email (not beside other steps)', async () => {
    const cwd = makeProject({ 'workflows/mail.yaml': MAIL });
    const human = await runCli(['preview', 'mail'], { cwd });
    expect(human.status).toBe(0);
    const layoutLines = human.stdout.split('\n').filter((line) => line.includes('Layout:'));
    expect(layoutLines).toEqual([`   Layout:    ${NAMED}`, `   Layout:    ${DEFAULT}`]);

    const json = await runCli(['preview', 'mail', '--format', 'json'], { cwd });
    const doc = parseJsonOutput('preview', json.stdout);
    expect(doc.workflows[0].steps.map((s: { layout?: string }) => s.layout)).toEqual([
      NAMED,
      DEFAULT,
      undefined,
    ]);

    const html = await runCli(['preview', 'mail', '--format', 'html', '--out', 'mail.html'], { cwd });
    expect(html.status).toBe(0);
    const page = readFileSync(join(cwd, 'mail.html'), 'utf8');
    expect(page).toContain(`<dt>Layout</dt><dd>${NAMED.replaceAll('"', '&#34;')}</dd>`);
    expect(page).toContain(`<dt>Layout</dt><dd>${DEFAULT.replaceAll("'", '&#39;')}</dd>`);
  });
});
