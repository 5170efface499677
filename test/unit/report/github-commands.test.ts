/**
 * `--format github` as the Actions runner reads it: every escape, every severity, positions present or missing,
 * the caps at their boundaries, and no text from outside ever starting a line the runner would run as a command.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { sanitizeOutput } from '../../../src/report/channel.js';
import {
  escapeData,
  escapeProperty,
  formatAnnotation,
  joinWords,
  renderGithub,
} from '../../../src/report/github.js';
import { runs } from '../../helpers/fc-runs.js';
import { wouldRunnerParse } from '../../helpers/runner.js';
import { diagnostic, reportOf } from './fixture-report.js';

const span = { line: 3, column: 5, endLine: 3, endColumn: 8 };

function d(fields: Partial<Diagnostic> = {}): Diagnostic {
  return { ...diagnostic('w.yaml', span, { code: 'c', severity: 'error', message: 'm' }), ...fields };
}

/** `count` diagnostics of one severity in `file`, on lines 1…count, messages `<severity> <n>`. */
function many(severity: Severity, count: number, file = 'w.yaml'): Diagnostic[] {
  return Array.from({ length: count }, (_, i) =>
    d({
      file,
      severity,
      line: i + 1,
      endLine: i + 1,
      column: 1,
      endColumn: 2,
      message: `${severity} ${i + 1}`,
    }),
  );
}

const MARK = 'own-line-mark:';

/**
 * Renders diagnostics in the given order (no sorting), as `wfsync validate` hands them over, then writes them as the
 * CLI does under GitHub Actions: through the output channel, with the process's mark on our own command lines.
 */
function render(diagnostics: Diagnostic[]): string[] {
  const report = { ...reportOf([]), diagnostics, files: [...new Set(diagnostics.map((x) => x.file))] };
  const text = renderGithub(report, { color: false, commandMark: () => MARK });
  return sanitizeOutput(text, { color: false, actions: true, mark: MARK }).split('\n');
}

/** The runner's view of a line (test/helpers/runner.ts). */
const isCommand = wouldRunnerParse;

describe('escapeData', () => {
  it.each([
    ['%', '%25'],
    ['\r', '%0D'],
    ['\n', '%0A'],
    ['%%\r\r\n\n', '%25%25%0D%0D%0A%0A'],
    [':,', ':,'],
    ['plain', 'plain'],
    ['%0A', '%250A'],
  ])('%j → %j', (text, escaped) => {
    expect(escapeData(text)).toBe(escaped);
  });
});

describe('escapeProperty', () => {
  it.each([
    ['%', '%25'],
    ['\r', '%0D'],
    ['\n', '%0A'],
    [':', '%3A'],
    [',', '%2C'],
    ['a::b,,c', 'a%3A%3Ab%2C%2Cc'],
    ['%3A', '%253A'],
    ['dir/file.yaml', 'dir/file.yaml'],
  ])('%j → %j', (text, escaped) => {
    expect(escapeProperty(text)).toBe(escaped);
  });
});

describe('formatAnnotation', () => {
  it.each([
    ['error', 'error'],
    ['warning', 'warning'],
    ['info', 'notice'],
  ] as const)('writes a %s as ::%s', (severity, command) => {
    expect(formatAnnotation(d({ severity }))).toBe(
      `::${command} file=w.yaml,line=3,col=5,endLine=3,endColumn=8,title=wfsync (c)::m`,
    );
  });

  it('writes only the title when the diagnostic has no file (no line, no column)', () => {
    expect(formatAnnotation(d({ file: '', severity: 'warning' }))).toBe('::warning title=wfsync (c)::m');
  });

  it('writes the end line but no columns for a span over lines, also one ending before it starts', () => {
    expect(formatAnnotation(d({ endLine: 4 }))).toBe(
      '::error file=w.yaml,line=3,endLine=4,title=wfsync (c)::m',
    );
    expect(formatAnnotation(d({ endLine: 2 }))).toBe(
      '::error file=w.yaml,line=3,endLine=2,title=wfsync (c)::m',
    );
  });

  it('escapes the file and the code as properties and the message as data, keeping tabs', () => {
    expect(formatAnnotation(d({ file: 'a:b,c%.yaml', code: 'x:y,z', message: 'a:b,c\t%\r\n::x' }))).toBe(
      '::error file=a%3Ab%2Cc%25.yaml,line=3,col=5,endLine=3,endColumn=8,title=wfsync (x%3Ay%2Cz)::a:b,c\t%25%0D%0A::x',
    );
  });

  it('makes escape codes and other controls in the message visible, through the channel', () => {
    const line = formatAnnotation(d({ message: 'a\x1b[2Kb\x07\u202e' }), MARK);
    expect(sanitizeOutput(line, { color: false, actions: true, mark: MARK })).toBe(
      '::error file=w.yaml,line=3,col=5,endLine=3,endColumn=8,title=wfsync (c)::a\u241b[2Kb\u2407\ufffd',
    );
  });
});

describe('joinWords', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b and c'],
  ])('%j → %j', (words, joined) => {
    expect(joinWords(words)).toBe(joined);
  });
});

describe('renderGithub', () => {
  it('writes one annotation per diagnostic, then the summary, for a few of each kind', () => {
    expect(
      render([
        d({ severity: 'error', message: 'e' }),
        d({ severity: 'warning', message: 'w', file: '' }),
        d({ severity: 'info', message: 'i', endLine: 9 }),
      ]),
    ).toEqual([
      '::error file=w.yaml,line=3,col=5,endLine=3,endColumn=8,title=wfsync (c)::e',
      '::warning title=wfsync (c)::w',
      '::notice file=w.yaml,line=3,endLine=9,title=wfsync (c)::i',
      '✖ 3 problems (1 error, 1 warning, 1 info) in 2 of 2 files',
      '',
    ]);
  });

  it('annotates all ten at the cap of each kind, with no notice', () => {
    const out = render([...many('error', 10), ...many('warning', 10), ...many('info', 10)]);
    expect(out.filter((l) => l.startsWith('::error file='))).toHaveLength(10);
    expect(out.filter((l) => l.startsWith('::warning file='))).toHaveLength(10);
    expect(out.filter((l) => l.startsWith('::notice file='))).toHaveLength(10);
    expect(out.slice(30)).toEqual(['✖ 30 problems (10 errors, 10 warnings, 10 infos) in 1 of 1 file', '']);
  });

  it('one over the cap: the eleventh is a plain line, and a notice counts it', () => {
    expect(render(many('warning', 11)).slice(9)).toEqual([
      '::warning file=w.yaml,line=10,col=1,endLine=10,endColumn=2,title=wfsync (c)::warning 10',
      'w.yaml:11:1 warning warning 11 [c]',
      '::notice::1 more warning not shown as annotations; see the job summary',
      '✖ 11 problems (0 errors, 11 warnings) in 1 of 1 file',
      '',
    ]);
  });

  it('far over the cap: every one left out is listed, and counted in the plural', () => {
    const out = render(many('error', 40));
    expect(out.slice(10, 40)).toEqual(
      Array.from({ length: 30 }, (_, i) => `w.yaml:${i + 11}:1 error error ${i + 11} [c]`),
    );
    expect(out.slice(40)).toEqual([
      '::notice::30 more errors not shown as annotations; see the job summary',
      '✖ 40 problems (40 errors, 0 warnings) in 1 of 1 file',
      '',
    ]);
  });

  it('when another kind overflows, annotates 9 infos and keeps the tenth notice slot for the count', () => {
    const out = render([...many('warning', 11), ...many('info', 9)]);
    expect(out.filter((l) => l.startsWith('::notice'))).toHaveLength(10);
    expect(out).toContain('::notice::1 more warning not shown as annotations; see the job summary');
    const ten = render([...many('warning', 11), ...many('info', 10)]);
    expect(ten).toContain('w.yaml:10:1 info info 10 [c]');
    expect(ten).toContain(
      '::notice::1 more warning and 1 more info not shown as annotations; see the job summary',
    );
  });

  it('with only infos overflowing, annotates 9 of them and counts 2', () => {
    const out = render(many('info', 11));
    expect(out.filter((l) => l.startsWith('::notice file='))).toHaveLength(9);
    expect(out.slice(9)).toEqual([
      'w.yaml:10:1 info info 10 [c]',
      'w.yaml:11:1 info info 11 [c]',
      '::notice::2 more infos not shown as annotations; see the job summary',
      '✔ 1 file valid, 11 infos',
      '',
    ]);
  });

  it('names the kinds left out in the order errors, warnings, infos, whatever the report order', () => {
    const out = render([...many('info', 12), ...many('warning', 11), ...many('error', 11)]);
    expect(out).toContain(
      '::notice::1 more error, 1 more warning and 3 more infos not shown as annotations; see the job summary',
    );
  });

  it('makes a plain line safe: controls visible, line breaks flattened, in the file and code too', () => {
    const out = render([
      ...many('error', 10),
      d({
        file: 'a\nb\x1b.yaml',
        code: 'x\ny',
        message: 'one\r\ntwo\rthree\nfour\x1b[0m',
        line: 7,
        column: 2,
      }),
    ]);
    expect(out[10]).toBe('a\u240ab\u241b.yaml:7:2 error one two three four\u241b[0m [x\u240ay]');
  });

  it('keeps a file named like a workflow command from starting a line with :: or ##[', () => {
    const files = ['::add-mask::x.yaml', '  ::stop-commands::t.yaml', '##[group]g.yaml', '\t::error::e.yaml'];
    const out = render([...many('error', 10, '0.yaml'), ...files.map((file) => d({ file }))]);
    expect(out.slice(10, 14)).toEqual([
      ':\uff1aadd-mask::x.yaml:3:5 error m [c]',
      '  :\uff1astop-commands::t.yaml:3:5 error m [c]',
      '##\uff3bgroup]g.yaml:3:5 error m [c]',
      '\t:\uff1aerror::e.yaml:3:5 error m [c]',
    ]);
    expect(out.filter(isCommand)).toHaveLength(11);
  });

  it('whatever the files, codes and messages, the only command lines are its own annotations and notice (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('::add-mask::x', ' ::error::y', '##[group]z', '\n::warning::w', 'a\r\n::notice::b'),
    );
    const arbDiagnostic = fc.record({
      file: text,
      code: text,
      message: text,
      severity: fc.constantFrom<Severity>('error', 'warning', 'info'),
      line: fc.integer({ min: 1, max: 5 }),
      endLine: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(arbDiagnostic, { maxLength: 25 }), (specs) => {
        const diagnostics = specs.map((s) => d(s));
        const out = render(diagnostics);
        const commands = out.filter(isCommand);
        for (const line of commands) {
          expect(line).toMatch(
            /^::(error|warning|notice) (file=[^:,]*,line=\d+,[^:]*)?title=[^:,]*::[^\r\n]*$|^::notice::/,
          );
        }
        // One line per diagnostic, at most one notice, one summary line (no max-warnings here), the final newline.
        const notice = out.some((l) => l.startsWith('::notice::')) ? 1 : 0;
        expect(out).toHaveLength(diagnostics.length + notice + 2);
        // The annotations come first, then plain lines: none of those reads as a command.
        const annotated = out.findIndex((l) => !l.startsWith('::') || l.startsWith('::notice::'));
        expect(annotated).toBeLessThanOrEqual(30);
        const count = (s: Severity) => diagnostics.filter((x) => x.severity === s).length;
        if (count('error') <= 10 && count('warning') <= 10 && count('info') <= 10) {
          expect(annotated).toBe(diagnostics.length);
        }
        expect(commands.length).toBe(annotated + notice);
      }),
      { numRuns: runs(200) },
    );
  });
});
