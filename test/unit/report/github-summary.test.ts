import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import {
  escapeMarkdown,
  renderGithubStepSummary,
  STEP_SUMMARY_MAX_BYTES,
  utf8Length,
} from '../../../src/report/github-summary.js';
import { diagnostic, reportOf } from './fixture-report.js';

function many(count: number, messageLength: number): Diagnostic[] {
  return Array.from({ length: count }, (_, i) =>
    diagnostic(
      `workflows/w${String(i).padStart(5, '0')}.yaml`,
      { line: 1, column: 1, endLine: 1, endColumn: 2 },
      { code: 'schema-type', severity: 'error', message: `é${'x'.repeat(messageLength)}` },
    ),
  );
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('escapeMarkdown', () => {
  it('keeps a table cell one cell and renders no HTML or emphasis', () => {
    expect(escapeMarkdown('a|b')).toBe('a\\|b');
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeMarkdown('a & b')).toBe('a &amp; b');
    expect(escapeMarkdown('*bold* _it_ `code` [link](u) ~x~ \\')).toBe(
      '\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](u) \\~x\\~ \\\\',
    );
    expect(escapeMarkdown('one\ntwo\r\nthree\tfour')).toBe('one<br>two<br>three four');
    expect(escapeMarkdown('bell\x07')).toBe('bell\u2407');
  });

  it('never leaves an unescaped pipe or a line break (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeMarkdown(text);
        expect(escaped).not.toMatch(/[\r\n]/);
        expect(escaped.replace(/\\\\/g, '')).not.toMatch(/(^|[^\\])\|/);
        expect(escaped.replace(/<br>/g, '')).not.toMatch(/[<>]/);
      }),
    );
  });
});

describe('utf8Length', () => {
  it('agrees with Buffer.byteLength, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(bytes(text));
      }),
    );
  });
});

describe('renderGithubStepSummary', () => {
  it('gives a heading and the verdict, and no table, for a clean run', () => {
    expect(renderGithubStepSummary({ ...reportOf([]), files: ['a.yaml'] })).toBe(
      '## wfsync validate\n\n✔ 1 file valid\n',
    );
  });

  it('lists every diagnostic in a table row', () => {
    const out = renderGithubStepSummary(reportOf(many(3, 5)));
    const rows = out.split('\n').filter((l) => l.startsWith('| workflows/'));
    expect(rows).toEqual([
      '| workflows/w00000.yaml | 1 | error | schema-type | éxxxxx |',
      '| workflows/w00001.yaml | 1 | error | schema-type | éxxxxx |',
      '| workflows/w00002.yaml | 1 | error | schema-type | éxxxxx |',
    ]);
    expect(out).not.toContain('not listed');
  });

  it('stays within the byte budget and says how many rows were left out', () => {
    const report = reportOf(many(2000, 700));
    const out = renderGithubStepSummary(report);
    expect(bytes(out)).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    const listed = out.split('\n').filter((l) => l.startsWith('| workflows/')).length;
    expect(listed).toBeGreaterThan(1000);
    expect(out).toContain(`_${2000 - listed} more problems not listed: a step summary is limited to 1 MiB.`);
  });

  it('uses the budget exactly: a text that just fits is not cut, one byte less is', () => {
    const report = reportOf(many(40, 30));
    const full = renderGithubStepSummary(report);
    expect(renderGithubStepSummary(report, { maxBytes: bytes(full) })).toBe(full);
    const cut = renderGithubStepSummary(report, { maxBytes: bytes(full) - 1 });
    expect(bytes(cut)).toBeLessThanOrEqual(bytes(full) - 1);
    expect(cut).toMatch(/_\d+ more problems? not listed/);
    for (const maxBytes of [400, 1000, 2345]) {
      expect(bytes(renderGithubStepSummary(report, { maxBytes }))).toBeLessThanOrEqual(maxBytes);
    }
  });
});
