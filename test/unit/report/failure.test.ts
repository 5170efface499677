import { describe, expect, it } from 'vitest';
import { type CommandFailure, renderFailureGithub, renderFailureJson } from '../../../src/report/failure.js';
import {
  PR_COMMENT_MARKER,
  planCommentMarkers,
  syncCommentMarkers,
} from '../../../src/report/plan/markdown.js';
import { renderFailureMarkdown } from '../../../src/report/plan/markdown-failure.js';
import { jsonOutputProblems } from '../../helpers/json-output.js';
import { diagnostic } from './plan/fixture-plan.js';

/** A command that failed as a whole: one error document (json), one failed-plan comment (markdown). */

const SERVICE_DOWN: CommandFailure = {
  code: 'service-network',
  message: 'GET /v1/workflows/welcome: connection refused; check baseUrl in wfsync.config.yaml',
  exitCode: 1,
  diagnostics: [],
  endpoint: { method: 'GET', path: '/v1/workflows/welcome' },
};

describe('renderFailureJson', () => {
  it('is {schemaVersion, error: {code, message, exitCode, endpoint, status}}, in that order, per the schema', () => {
    const text = renderFailureJson({ ...SERVICE_DOWN, code: 'service-server', status: 503 });
    const parsed = JSON.parse(text);
    expect(parsed).toEqual({
      schemaVersion: 4,
      error: {
        code: 'service-server',
        message: SERVICE_DOWN.message,
        exitCode: 1,
        endpoint: { method: 'GET', path: '/v1/workflows/welcome' },
        status: 503,
      },
    });
    expect(Object.keys(parsed.error)).toEqual(['code', 'message', 'exitCode', 'endpoint', 'status']);
    expect(jsonOutputProblems('error', parsed)).toEqual([]);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('carries diagnostics in the key order of every JSON document, and no empty fields', () => {
    const parsed = JSON.parse(
      renderFailureJson({ code: 'invalid', message: '1 problem', exitCode: 3, diagnostics: [diagnostic()] }),
    );
    expect(Object.keys(parsed.error)).toEqual(['code', 'message', 'exitCode', 'diagnostics']);
    expect(Object.keys(parsed.error.diagnostics[0])).toEqual([
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'severity',
      'code',
      'message',
      'pointer',
    ]);
    expect(jsonOutputProblems('plan', parsed)).toEqual([]);
    expect(jsonOutputProblems('error', { ...parsed, error: { ...parsed.error, code: 'oops' } })).not.toEqual(
      [],
    );
  });
});

describe('renderFailureMarkdown', () => {
  it('replaces the plan comment: its markers, the failure, what to do, with the --target given', () => {
    const out = renderFailureMarkdown(SERVICE_DOWN, {
      command: 'plan',
      markers: planCommentMarkers('production'),
      target: 'production',
      targetFlag: 'production',
      stamp: { time: '2026-11-26T02:30:00Z', commit: 'abcdef1' },
    });
    expect(out).toBe(
      [
        '<!-- wfsync-plan -->',
        '<!-- wfsync-plan target=production -->',
        '## ✖ wfsync plan failed · production',
        '',
        '<sub>Commit `abcdef1` · 2026-11-26 02:30 UTC · target `production`</sub>',
        '',
        '**No plan: the plan could not be made (exit 1, `service-network`).** This comment replaces the earlier plan, which may no longer hold.',
        '',
        '```text',
        SERVICE_DOWN.message,
        '```',
        '',
        "**What to do:** the service could not be asked: re-run the job once it answers (check the target's baseUrl and the service's status).",
        '',
        '**Before merging:** the plan must succeed; until it does, nobody can tell what merging will do.',
        '',
      ].join('\n'),
    );
  });

  it('lists the problems of invalid definitions, escaped, and keeps text from outside from faking a marker', () => {
    const hostile = `<!-- wfsync-plan --> @someone #12 \`\`\`\n</details>`;
    const out = renderFailureMarkdown(
      {
        code: 'invalid',
        message: `2 problems ${hostile}`,
        exitCode: 3,
        diagnostics: [diagnostic({ message: hostile })],
      },
      { command: 'plan', markers: planCommentMarkers(undefined) },
    );
    expect(out.split(PR_COMMENT_MARKER)).toHaveLength(2);
    expect(out).not.toMatch(/@someone|#12/);
    expect(out).toContain(
      '**What to do:** fix the problems above (`wfsync validate` shows them with their lines)',
    );
    expect(out).toContain('- `workflows/payment-failed.yaml:14:18` **error** &lt;!-- wfsync-plan --&gt;');
  });

  it('names the sync and its markers for a sync, with no reviewer line', () => {
    const out = renderFailureMarkdown(
      { code: 'stale-plan', message: 'the reviewed plan plan.json is stale', exitCode: 2, diagnostics: [] },
      { command: 'sync', markers: syncCommentMarkers('prod'), targetFlag: 'prod' },
    );
    expect(
      out.startsWith('<!-- wfsync-sync -->\n<!-- wfsync-sync target=prod -->\n## ✖ wfsync sync failed\n'),
    ).toBe(true);
    expect(out).toContain('make the plan again (`wfsync plan --target prod --out plan.json`), review it');
    expect(out).not.toContain('Before merging');
  });
});

describe('renderFailureGithub', () => {
  it('one ::error for the failure, titled with command, exit code and code; the message escaped onto one line', () => {
    const out = renderFailureGithub(
      { ...SERVICE_DOWN, message: '100% down,\nreally: yes' },
      { command: 'plan', mark: 'M:' },
    );
    expect(out).toBe(
      'M:::error title=wfsync plan failed (exit 1%2C service-network)::100%25 down,%0Areally: yes\n',
    );
  });

  it('then one ::error per diagnostic on its file and line, at most 10 of a kind and a notice for the rest', () => {
    const diagnostics = Array.from({ length: 12 }, (_, i) => diagnostic({ line: i + 1, endLine: i + 1 }));
    const lines = renderFailureGithub(
      { code: 'invalid', message: '12 problems', exitCode: 3, diagnostics },
      { command: 'sync' },
    ).split('\n');
    expect(lines[0]).toBe('::error title=wfsync sync failed (exit 3%2C invalid)::12 problems');
    expect(lines[1]).toBe(
      '::error file=workflows/payment-failed.yaml,line=1,col=18,endLine=1,endColumn=31,title=wfsync (service-rejected)::' +
        'Failed to extract variables: Parse error on line 1: expecting ID, got INVALID',
    );
    expect(lines.filter((l) => l.startsWith('::error file='))).toHaveLength(10);
    expect(lines[11]).toBe("::notice::2 more errors not shown as annotations; see this job's log");
    expect(lines).toHaveLength(13);
    expect(lines[12]).toBe('');
  });
});
