import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { sanitizeOutput } from '../../../src/report/channel.js';
import {
  ANNOTATIONS_PER_KIND,
  escapeData,
  escapeProperty,
  formatAnnotation,
  renderGithub,
} from '../../../src/report/github.js';
import { diagnostic, reportOf } from './fixture-report.js';

function many(severity: Severity, count: number, file = 'w.yaml'): Diagnostic[] {
  return Array.from({ length: count }, (_, i) =>
    diagnostic(
      file,
      { line: i + 1, column: 1, endLine: i + 1, endColumn: 2 },
      { code: `${severity}-code`, severity, message: `${severity} ${i + 1}` },
    ),
  );
}

/** Reverses the runner's decoding, to check nothing is lost. */
function decodeCommand(text: string): string {
  return text.replace(/%(25|0D|0A|3A|2C)/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

describe('escaping', () => {
  it('escapes data and properties as @actions/core does', () => {
    expect(escapeData('100%\r\nnext: a,b')).toBe('100%25%0D%0Anext: a,b');
    expect(escapeProperty('100%\r\nnext: a,b')).toBe('100%25%0D%0Anext%3A a%2Cb');
    // `%` first: an already escaped-looking text must not be decoded back by the runner.
    expect(escapeData('%0A')).toBe('%250A');
  });

  it('round-trips any text and leaves no separator a property could be split on (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeProperty(text);
        expect(escaped).not.toMatch(/[\r\n:,]/);
        expect(decodeCommand(escaped)).toBe(text);
        expect(escapeData(text)).not.toMatch(/[\r\n]/);
      }),
    );
  });
});

describe('formatAnnotation', () => {
  const base = diagnostic(
    'dir/a,b:c.yaml',
    { line: 4, column: 3, endLine: 4, endColumn: 9 },
    { code: 'schema-enum', severity: 'error', message: 'bad: 50%,\nreally' },
  );

  it('writes the position, a title with the code, and the escaped message', () => {
    expect(formatAnnotation(base)).toBe(
      '::error file=dir/a%2Cb%3Ac.yaml,line=4,col=3,endLine=4,endColumn=9,title=wfsync (schema-enum)::bad: 50%25,%0Areally',
    );
  });

  it('uses warning and notice commands', () => {
    expect(formatAnnotation({ ...base, severity: 'warning' })).toMatch(/^::warning /);
    expect(formatAnnotation({ ...base, severity: 'info' })).toMatch(/^::notice /);
  });

  it('leaves out columns for a span over several lines (GitHub rejects them)', () => {
    expect(formatAnnotation({ ...base, endLine: 6 })).toBe(
      '::error file=dir/a%2Cb%3Ac.yaml,line=4,endLine=6,title=wfsync (schema-enum)::bad: 50%25,%0Areally',
    );
  });

  it('leaves out the position for a diagnostic without a file; the channel neutralizes escape codes', () => {
    const line = formatAnnotation({ ...base, file: '', message: 'x\x1b[31my' }, 'M:');
    expect(line).toBe('M:::error title=wfsync (schema-enum)::x\x1b[31my');
    expect(sanitizeOutput(line, { color: false, actions: true, mark: 'M:' })).toBe(
      '::error title=wfsync (schema-enum)::x\u241b[31my',
    );
  });
});

describe('renderGithub', () => {
  it('annotates the first 10 errors, lists the rest plainly and counts them in one notice', () => {
    const out = renderGithub(reportOf(many('error', 25)), { color: false }).split('\n');
    expect(out.filter((l) => l.startsWith('::error '))).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(out[9]).toContain('::error 10');
    expect(out.filter((l) => /^w\.yaml:\d+:1 error error \d+ \[error-code\]$/.test(l))).toHaveLength(15);
    expect(out).toContain('::notice::15 more errors not shown as annotations; see the job summary');
    expect(out.at(-2)).toBe('✖ 25 problems (25 errors, 0 warnings) in 1 of 1 file');
    expect(out.at(-1)).toBe('');
  });

  it('caps each kind separately, in report order, and names every kind left out', () => {
    const report = reportOf([
      ...many('error', 12, 'a.yaml'),
      ...many('warning', 11, 'b.yaml'),
      ...many('info', 3, 'c.yaml'),
    ]);
    const out = renderGithub(report, { color: false }).split('\n');
    expect(out.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(out.filter((l) => l.startsWith('::warning '))).toHaveLength(10);
    expect(out.filter((l) => l.startsWith('::notice file='))).toHaveLength(3);
    expect(out).toContain(
      '::notice::2 more errors and 1 more warning not shown as annotations; see the job summary',
    );
  });

  it('keeps a notice slot for the overflow notice when infos would fill all ten', () => {
    const report = reportOf([...many('error', 11, 'a.yaml'), ...many('info', 10, 'b.yaml')]);
    const out = renderGithub(report, { color: false }).split('\n');
    expect(out.filter((l) => l.startsWith('::notice'))).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(out).toContain(
      '::notice::1 more error and 1 more info not shown as annotations; see the job summary',
    );
  });

  it('has no overflow notice at exactly ten of each', () => {
    const report = reportOf([
      ...many('error', 10, 'a.yaml'),
      ...many('warning', 10, 'b.yaml'),
      ...many('info', 10, 'c.yaml'),
    ]);
    const out = renderGithub(report, { color: false });
    expect(out).not.toContain('::notice::');
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(30);
  });

  it('flattens line breaks in plain lines so a message cannot inject a workflow command', () => {
    const evil = many('error', 11);
    evil[10] = { ...evil[10]!, message: 'x\n::add-mask::secret\r::stop-commands::t' };
    const out = renderGithub(reportOf(evil), { color: false });
    expect(
      out
        .split('\n')
        .filter((l) => l.startsWith('::'))
        .every((l) => /^::(error|notice) /.test(l) || l.startsWith('::notice::')),
    ).toBe(true);
    expect(out).toContain('w.yaml:11:1 error x ::add-mask::secret ::stop-commands::t [error-code]');
  });

  it('prints only the summary for a clean run', () => {
    expect(renderGithub({ ...reportOf([]), files: ['a.yaml'] }, { color: false })).toBe('✔ 1 file valid\n');
  });
});
