import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { sanitizeOutput } from '../../../src/report/channel.js';
import { renderHuman } from '../../../src/report/human.js';
import { buildFixtureReport, diagnostic, reportOf } from './fixture-report.js';

const span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

function d(file: string, fields: Partial<Diagnostic> = {}): Diagnostic {
  return { ...diagnostic(file, span, { code: 'c', severity: 'error', message: 'm' }), ...fields };
}

describe('renderHuman', () => {
  it('never writes an escape code without color, even when sources and messages contain them', () => {
    const evil = '\x1b[2J\x1b]8;;https://evil.example\x07link\x1b]8;;\x07\x9b31m';
    const report = reportOf(
      [d(`a${evil}.yaml`, { message: `bad ${evil}\nsecond ${evil}`, code: `x${evil}` })],
      { sources: new Map([[`a${evil}.yaml`, `key: ${evil}\n`]]) },
    );
    // As the CLI writes it: through the output channel (the renderer quotes text from outside as it is).
    const out = sanitizeOutput(renderHuman(report, { color: false }), { color: false, actions: false });
    expect(out).not.toContain('\x1b');
    expect(out).not.toContain('\x07');
    expect(out).not.toContain('\x9b');
    expect(out).toContain('\u241b[2J'); // shown, not obeyed
    expect(renderHuman(buildFixtureReport(), { color: false })).not.toContain('\x1b');
  });

  it('colors severities, bolds the location and dims the gutter and code with color', () => {
    const report = reportOf([d('a.yaml'), d('a.yaml', { severity: 'warning', line: 2, endLine: 2 })], {
      sources: new Map([['a.yaml', 'x: 1\ny: 2\n']]),
    });
    const out = renderHuman(report, { color: true });
    expect(out).toContain('\x1b[1ma.yaml:1:1\x1b[22m \x1b[31merror\x1b[39m m \x1b[2m[c]\x1b[22m');
    expect(out).toContain('\x1b[33mwarning\x1b[39m');
    expect(out).toContain('\x1b[2m1 |\x1b[22m');
    expect(out).toContain('\x1b[31m^\x1b[39m');
  });

  it('groups diagnostics by file in sorted order, keeping the order within a file', () => {
    const report = {
      ...reportOf([]),
      files: ['a.yaml', 'b.yaml'],
      diagnostics: [
        d('b.yaml', { message: 'b1' }),
        d('a.yaml', { message: 'a1', line: 9, endLine: 9 }),
        d('b.yaml', { message: 'b2' }),
        d('a.yaml', { message: 'a2', line: 3, endLine: 3 }),
      ],
    };
    const headers = renderHuman(report, { color: false })
      .split('\n')
      .filter((l) => /\.yaml:\d+:\d+ /.test(l));
    expect(headers).toEqual([
      'a.yaml:9:1 error a1 [c]',
      'a.yaml:3:1 error a2 [c]',
      'b.yaml:1:1 error b1 [c]',
      'b.yaml:1:1 error b2 [c]',
    ]);
  });

  it('prints the header alone when the file text is unknown, then a blank line', () => {
    const out = renderHuman(reportOf([d('gone.yaml', { message: 'cannot read' })]), { color: false });
    expect(out).toBe(
      'gone.yaml:1:1 error cannot read [c]\n\n✖ 1 problem (1 error, 0 warnings) in 1 of 1 file\n',
    );
  });

  it('indents the further lines of a multi-line message and ends it with the code', () => {
    const out = renderHuman(reportOf([d('a.yaml', { message: 'first\nsecond\r\nthird' })]), { color: false });
    expect(out.split('\n').slice(0, 3)).toEqual(['a.yaml:1:1 error first', '  second', '  third [c]']);
  });

  it('ends with the summary for a clean run', () => {
    const report = { ...reportOf([]), files: ['a.yaml', 'b.yaml'] };
    expect(renderHuman(report, { color: false })).toBe('✔ 2 files valid\n');
  });
});
