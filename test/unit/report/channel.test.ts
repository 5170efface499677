import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildMarkdownDocument,
  createChannel,
  jsonText,
  sanitizeOutput,
  sanitizeTerminal,
} from '../../../src/report/channel.js';
import { createStyle } from '../../../src/report/style.js';
import { runs } from '../../helpers/fc-runs.js';
import { isCollationIgnorable, runnerCommands, wouldRunnerParse } from '../../helpers/runner.js';

/** Anything a terminal would obey or a reader would not see: controls, C1, bidi, lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

const HOSTILE = [
  '\x1b]8;;https://evil.example\x07click\x1b]8;;\x07', // OSC 8 hyperlink
  '\x1b]0;owned\x07', // title change
  '\x1b[2J\x1b[H', // screen clear, cursor home
  '\x1b[8mhidden\x1b[28m', // conceal (not in our palette)
  'abc\u202edcba', // bidi override
  '\u009b31m', // C1 CSI
  'a\rb', // carriage return
  '\ud800', // lone surrogate
];

describe('the terminal channel', () => {
  it.each(HOSTILE)('shows %j instead of obeying it', (text) => {
    for (const color of [false, true]) {
      const out = sanitizeTerminal(text, color);
      expect(out).not.toMatch(UNSAFE);
      expect(out).not.toContain('\x1b');
    }
  });

  it("lets our palette's SGR through with colour only, and keeps line breaks and tabs", () => {
    const painted = createStyle(true).red(`a${createStyle(true).bold('b')}\tc\nd`);
    expect(sanitizeTerminal(painted, true)).toBe(painted);
    expect(sanitizeTerminal(painted, false)).not.toContain('\x1b');
    expect(sanitizeTerminal('\x1b[31mx', false)).toBe('\u241b[31mx');
  });

  it('never lets an unsafe character or a foreign escape through (property)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 60 });
    fc.assert(
      fc.property(text, fc.boolean(), (s, color) => {
        const out = sanitizeTerminal(s, color);
        expect(out).not.toMatch(UNSAFE);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
        const escapes = out.match(/\x1b\[\d+m/g) ?? [];
        expect(out.split('\x1b').length - 1).toBe(escapes.length);
        if (!color) expect(escapes).toEqual([]);
      }),
      { numRuns: runs(150) },
    );
  });
});

const MARK = 'mark-1234:';
const actions = (text: string) => sanitizeOutput(text, { color: false, actions: true, mark: MARK });

describe('the GitHub Actions channel', () => {
  it.each([
    ['::set-output name=x::y', ':\uff1aset-output name=x::y'],
    ['  \t::stop-commands::tok', '  \t:\uff1astop-commands::tok'],
    ['x ##[add-mask]secret', 'x ##\uff3badd-mask]secret'],
    ['#\u200b#\u00ad[add-mask]s', '#\u200b#\u00ad\uff3badd-mask]s'],
    ['\u200b::error::x', '\u200b:\uff1aerror::x'],
    ['\u00a0\u2003::warning::x', '\u00a0\u2003:\uff1awarning::x'],
    [':\u200d:notice::x', ':\u200d\uff1anotice::x'],
    ['ok\n::error::forged', 'ok\n:\uff1aerror::forged'],
    ['x::y', 'x::y'],
    ['#[x]', '#[x]'],
  ])('%j → %j', (text, expected) => {
    expect(actions(text)).toBe(expected);
    expect(runnerCommands(actions(text))).toEqual([]);
  });

  it('keeps our own marked command lines, mark removed, and only those', () => {
    expect(actions(`${MARK}::error file=a::m\n::error::forged\n`)).toBe(
      '::error file=a::m\n:\uff1aerror::forged\n',
    );
    expect(actions(`x${MARK}::error::m`)).toBe(`x${MARK}::error::m`);
    expect(sanitizeOutput(`${MARK}::error::m\n`, { color: false, actions: false, mark: MARK })).toBe(
      '::error::m\n',
    );
  });

  it('with a mark made on first use: no line is ours before it is made, ours pass once it is', () => {
    let made: string | undefined;
    const channel = createChannel({ color: false, actions: true, mark: () => made });
    // Before any mark exists, a line carrying a guessed mark (or the exact one it will be) is text from outside:
    // nothing is stripped from it, so it never turns into a line starting with `::`.
    for (const guess of ['wfsync-own-', 'wfsync-own-00000000-0000-0000-0000-000000000000:', MARK]) {
      const line = `${guess}::error::forged\n`;
      expect(channel(line)).toBe(line);
      expect(runnerCommands(channel(line))).toEqual([]);
    }
    expect(channel('::stop-commands::tok\n')).toBe(':\uff1astop-commands::tok\n');
    made = MARK;
    expect(channel(`${MARK}::error file=a::m\n::error::forged\n`)).toBe(
      '::error file=a::m\n:\uff1aerror::forged\n',
    );
    // Outside Actions nothing is a command; the mark is stripped once made, and nothing is stripped before.
    let later: string | undefined;
    const plain = createChannel({ color: false, actions: false, mark: () => later });
    expect(plain(`${MARK}::error::m\n`)).toBe(`${MARK}::error::m\n`);
    later = MARK;
    expect(plain(`${MARK}::error::m\n`)).toBe('::error::m\n');
  });

  it('catches a command split over two writes', () => {
    for (const [a, b] of [
      [' :', ':set-output name=a::b'],
      ['x #', '#[add-mask]y'],
      ['x ##', '[add-mask]y'],
      ['', '::error::z'],
      ['ok\n', '::error::z'],
    ]) {
      const channel = createChannel({ color: false, actions: true, mark: MARK });
      const out = channel(a as string) + channel(b as string);
      expect(runnerCommands(out), JSON.stringify([a, b])).toEqual([]);
    }
  });

  it('allows inside the patterns every character ICU ignores (the runner compares with the culture)', () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x3ffff; cp++) {
      if (cp === 0x0a || cp === 0x0d || (cp >= 0xd800 && cp <= 0xdfff)) continue;
      const ch = String.fromCodePoint(cp);
      if (!isCollationIgnorable(ch)) continue;
      if (runnerCommands(actions(`#${ch}#[x]`)).length > 0) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('whatever the text and however it is split into writes, no line but ours is a command (property)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('::', ':', '#', '##[', '[', ']', ' ', '\t', '\n', '\r', '\u200b', '\u00ad', 'x', MARK),
    );
    const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 5 }), (s, cuts) => {
        const channel = createChannel({ color: false, actions: true, mark: MARK });
        const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
        let out = '';
        let last = 0;
        for (const p of [...points, s.length]) {
          out += channel(s.slice(last, p));
          last = p;
        }
        for (const line of runnerCommands(out)) {
          // Only a line that began with the mark in one piece may be a command.
          expect(s.split('\n').some((l) => l.startsWith(MARK) && `${l.slice(MARK.length)}`.length > 0)).toBe(
            true,
          );
          expect(wouldRunnerParse(line)).toBe(true);
        }
        if (!s.includes(MARK)) expect(runnerCommands(out)).toEqual([]);
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('the json channel', () => {
  it('writes raw C1, bidi and separators as escapes and ##[ as #\\u0023[, losslessly', () => {
    const value = { a: 'x\u009b2J\u202e\u2028\u2029##[add-mask]s\n::error::y', '##[k]': [1, '\x1b]0;t\x07'] };
    const text = jsonText(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain('#\\u0023[add-mask]');
    expect(runnerCommands(text)).toEqual([]);
  });

  it('parses back to the same value and is safe in a terminal and a log (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, s) => {
        for (const v of [value, { s, nested: [s, { s }] }]) {
          const text = jsonText(v);
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
          expect(text).not.toMatch(UNSAFE);
          expect(runnerCommands(text)).toEqual([]);
        }
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('the markdown channel', () => {
  const MARKER = '<!-- wfsync-plan -->';

  it('keeps the markers once and breaks every comment opener, mention and issue reference in the body', () => {
    const body = [
      `text ${MARKER} and \`${MARKER}\``,
      '```diff',
      `+<!-- wfsync-plan target=production -->`,
      '```',
      'ping @someone and @org/team, mail a@b.example, see #12 and owner/repo#34 and GH-5, keep &#60; and @@ -1 +1 @@',
    ].join('\n');
    const doc = buildMarkdownDocument([MARKER, '<!-- wfsync-plan target=x -->'], body);
    expect(doc.split(MARKER)).toHaveLength(2);
    expect(doc.split('<!--')).toHaveLength(3);
    expect(doc).not.toMatch(/(?<![A-Za-z0-9_])@[A-Za-z0-9]/);
    expect(doc).not.toMatch(/(?<!&)#\d|GH-\d/);
    expect(doc).toContain('a@b.example');
    expect(doc).toContain('&#60;');
    expect(doc).toContain('@@ -1 +1 @@');
  });
});
