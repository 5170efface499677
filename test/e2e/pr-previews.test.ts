import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonOutputProblems } from '../helpers/json-output.js';
import { pullRequest } from './pull-request-scenario.js';

/**
 * Issue 15 in the pull request of issue 13's scenario (order-shipped's in-app text edited on the branch,
 * password-changed added, trial-ending's description edited in the dashboard): the comment draws each created or
 * differing workflow's steps as a Mermaid flowchart and shows the edited message rendered before and after with the
 * sample payload; the JSON plan carries both and validates; `--previews` writes script-free HTML for the artifact.
 */

/** The `<details>` block of one workflow in a comment (up to the next workflow's, or the next steps). */
function blockOf(markdown: string, identifier: string): string {
  const start = markdown.search(
    new RegExp(`^<details(?: open)?>\\n<summary>[^\\n]*<code>${identifier}</code>`, 'm'),
  );
  expect(start, identifier).toBeGreaterThanOrEqual(0);
  const rest = markdown.slice(start + 1);
  const next = rest.search(/^(<details(?: open)?>\n<summary>[^\n]*<code>|### Next steps)/m);
  return markdown.slice(start, next < 0 ? undefined : start + 1 + next);
}

/** The lines of the first ```mermaid block of `text`. */
function mermaidOf(text: string): string[] {
  const match = /^```mermaid\n([\s\S]*?)\n```$/m.exec(text);
  expect(match, 'a mermaid block').not.toBeNull();
  return match![1]!.split('\n');
}

describe('the pull request comment and artifact show what the change does to the messages', () => {
  it('flowcharts, the edited message before and after, the JSON, and the HTML previews', async () => {
    const { target } = await pullRequest();
    const { cwd } = target;

    const markdown = await target.run(['plan', '--base', 'main', '--format', 'markdown']);
    expect(markdown.status, markdown.stderr).toBe(6);
    const shipped = blockOf(markdown.stdout, 'order-shipped');
    // The changed-locally workflow: open, its in-app message rendered both ways with one sample payload.
    expect(shipped.startsWith('<details open>')).toBe(true);
    expect(shipped).toMatch(
      /\*\*Rendered \(service → file\), 1 message\*\*, with the sample payload `\{[^`]*"orderNumber":/,
    );
    const payload = JSON.parse(/with the sample payload `([^`]+)`/.exec(shipped)![1]!) as Record<
      string,
      string
    >;
    const { orderNumber, carrier } = payload;
    expect(shipped).toContain(
      [
        '- in\\_app `shipping notice`',
        '',
        '  ```diff',
        `  - Order ${orderNumber} has shipped with ${carrier}.`,
        `  + Order ${orderNumber} is on its way with ${carrier}.`,
      ].join('\n'),
    );
    expect(shipped).toContain('<summary>Flowchart (2 steps)</summary>');
    expect(mermaidOf(shipped)).toEqual([
      'flowchart TD',
      '    t(["trigger<br/>order-shipped"])',
      '    s0["email<br/>shipping email"]',
      '    s1["in_app · changed<br/>shipping notice"]',
      '    e(["end"])',
      '    t --> s0',
      '    s0 --> s1',
      '    s1 --> e',
    ]);
    // The create: collapsed, with its flowchart; the drifted one (a description edit) has no rendered messages.
    const created = blockOf(markdown.stdout, 'password-changed');
    expect(created.startsWith('<details>\n')).toBe(true);
    expect(mermaidOf(created)[1]).toBe('    t(["trigger<br/>password-changed"])');
    const drifted = blockOf(markdown.stdout, 'trial-ending');
    expect(drifted).toContain('```mermaid');
    expect(drifted).not.toContain('**Rendered');
    expect(markdown.stdout.length).toBeLessThanOrEqual(65_000);

    // The JSON plan (validated against schemas/plan-output.schema.json by the runner, and here again).
    const json = await target.run(['plan', '--base', 'main', '--format', 'json']);
    expect(json.status).toBe(6);
    const plan = JSON.parse(json.stdout);
    expect(jsonOutputProblems('plan', plan)).toEqual([]);
    const byId = Object.fromEntries(
      (plan.items as Array<Record<string, unknown> & { identifier: string }>).map((i) => [i.identifier, i]),
    );
    expect(byId['order-shipped']!.rendered).toEqual({
      payload,
      steps: [
        {
          index: 1,
          name: 'shipping notice',
          type: 'in_app',
          before: expect.objectContaining({ content: `Order ${orderNumber} has shipped with ${carrier}.` }),
          after: expect.objectContaining({ content: `Order ${orderNumber} is on its way with ${carrier}.` }),
        },
      ],
    });
    expect((byId['password-changed']!.flow as { steps: unknown[] }).steps).toHaveLength(
      (byId['password-changed']!.preview as { steps: unknown[] }).steps.length,
    );
    expect(byId['password-reset']!.flow).toBeUndefined();

    // The artifact: the plan, and one preview per created or differing workflow, with an index.
    const previews = await target.run([
      'plan',
      '--base',
      'main',
      '--format',
      'markdown',
      '--out',
      'plan.json',
      '--previews',
      'artifact/previews',
    ]);
    expect(previews.status).toBe(6);
    expect(previews.stdout).toContain('```mermaid');
    expect(previews.stderr).toContain('wfsync: 3 previews and an index in artifact/previews\n');
    const dir = join(cwd, 'artifact/previews');
    expect(readdirSync(dir).sort()).toEqual([
      'index.html',
      'order-shipped.html',
      'password-changed.html',
      'trial-ending.html',
    ]);
    for (const name of readdirSync(dir))
      expect(readFileSync(join(dir, name), 'utf8')).not.toMatch(/<script/i);
    const page = readFileSync(join(dir, 'order-shipped.html'), 'utf8');
    expect(page).toContain('order shipped (this change)');
    expect(page).toContain('order shipped (on the service now)');
    expect(page).toContain(`Order ${orderNumber} is on its way with ${carrier}.`);
    expect(page).toContain(`Order ${orderNumber} has shipped with ${carrier}.`);
    expect(page).toContain('<iframe class="email-body" sandbox=""');
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;/);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain(
      '<a href="order-shipped.html">order-shipped</a>',
    );
    expect(previews.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("a hostile branch: a step name can't break the flowchart and a template's script never reaches the artifact", async () => {
    const { target } = await pullRequest();
    const { cwd } = target;
    const file = join(cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8');
    const hostile = 'x"] --> evil["%%{init: {}}%%\nclick s0 call alert(1)\n```';
    writeFileSync(
      file,
      text
        .replace('  - name: shipping email', `  - name: ${JSON.stringify(hostile)}`)
        .replace(
          '<p>Hi {{subscriber.firstName}},</p>',
          '<p>Hi {{subscriber.firstName}},</p><script>alert(1)</script>',
        ),
    );
    const run = await target.run([
      'plan',
      '--base',
      'main',
      '--format',
      'markdown',
      '--previews',
      'previews',
    ]);
    expect(run.status, run.stderr).toBe(6);
    const lines = mermaidOf(blockOf(run.stdout, 'order-shipped'));
    expect(lines[0]).toBe('flowchart TD');
    for (const line of lines.slice(1)) {
      expect(line).toMatch(
        /^ {4}[a-z][a-z0-9]*(\(\["[^"]*"\]\)|\["[^"]*"\]|\{\{"[^"]*"\}\}|\{"[^"]*"\}| (-->|-\.->)(\|(yes|no)\|)? [a-z][a-z0-9]*)$/,
      );
    }
    expect(lines[2]).toBe(
      '    s0["email · changed<br/>x#quot;#rsqb; --#gt; evil#lsqb;#quot;#percnt;#percnt;#lcub;init#colon; #lcub;#rcub;#rcub;#percnt;#percnt; click s0 call alert(1) #grave;#grave;#grave;"]',
    );
    // The email with the script: read as text in the comment (scripts dropped), only escaped in a sandboxed frame in the
    // artifact.
    const block = blockOf(run.stdout, 'order-shipped');
    const rendered = block.slice(block.indexOf('**Rendered'), block.indexOf('<summary>Flowchart'));
    // The email's HTML changed, its text did not: the diff says so rather than showing nothing.
    expect(rendered).toContain('    Hi Ada,\n');
    expect(rendered).toContain(
      '  ! reads the same as text; the rendered markup differs (see the plan artifact)\n',
    );
    expect(rendered).not.toMatch(/<script|<\/script>/);
    for (const name of readdirSync(join(cwd, 'previews')))
      expect(readFileSync(join(cwd, 'previews', name), 'utf8')).not.toMatch(/<script/i);
    expect(readFileSync(join(cwd, 'previews/order-shipped.html'), 'utf8')).toContain(
      '&#60;script&#62;alert(1)',
    );
  });
});
