import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  escapeProse,
  fencedBlock,
  inlineCode,
} from '../../../../src/report/plan/markdown-text.js';
import {
  diffLines,
  formatChange,
  formatValue,
  MAX_VALUE_LENGTH,
  NOT_SET,
  truncateText,
} from '../../../../src/report/plan/text.js';
import { change, yamlDiff } from './fixture-plan.js';

describe('formatValue', () => {
  it('writes values as one-line JSON, and absence as (not set)', () => {
    expect(formatValue('Hi {{name}}')).toBe('"Hi {{name}}"');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(null)).toBe('null');
    expect(formatValue({ amount: 5, unit: 'minutes' })).toBe('{"amount":5,"unit":"minutes"}');
    expect(formatValue(['a'])).toBe('["a"]');
    expect(formatValue(undefined)).toBe(NOT_SET);
    expect(formatValue('line 1\nline 2')).toBe('"line 1\\nline 2"');
  });

  it('truncates long values to the limit with an ellipsis', () => {
    const out = formatValue('x'.repeat(500));
    expect(Array.from(out)).toHaveLength(MAX_VALUE_LENGTH);
    expect(out.endsWith('…')).toBe(true);
    expect(out.startsWith('"xxx')).toBe(true);
  });

  it('makes escape codes and bidi overrides visible', () => {
    // JSON escapes C0 controls; the bidi override is made visible by the terminal sanitizer.
    expect(formatValue('a\x1b[31mb')).toBe('"a\\u001b[31mb"');
    expect(formatValue('a\u202eb')).toBe('"a\ufffdb"');
  });
});

describe('truncateText', () => {
  it('never splits a surrogate pair', () => {
    expect(truncateText('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncateText('😀😀', 2)).toBe('😀😀');
    expect(truncateText('abc', 3)).toBe('abc');
  });

  it('keeps every result within the limit (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 40 }), (text, max) => {
        const out = truncateText(text, max);
        expect(Array.from(out).length).toBeLessThanOrEqual(max);
        // No surrogate pair cut in half (the input has none of its own).
        expect(out).not.toMatch(/\p{Cs}/u);
        if (Array.from(text).length <= max) expect(out).toBe(text);
      }),
    );
  });
});

describe('formatChange', () => {
  it('reads service → file for each kind', () => {
    expect(formatChange(change('critical', '/critical', true, false))).toBe('critical: true → false');
    expect(formatChange(change('description', '/description', undefined, 'x'))).toBe(
      'description: (not set) → "x"',
    );
    expect(formatChange(change('steps[1]', '/steps/1', { a: 1 }, undefined))).toBe(
      'steps[1]: {"a":1} → (not set)',
    );
  });

  it('shows a changed value that is null or false as itself, not as absent', () => {
    expect(
      formatChange({ pointer: '/data', path: 'data', kind: 'changed', actual: null, desired: false }),
    ).toBe('data: null → false');
  });
});

describe('diffLines', () => {
  it('drops the separator line and the final empty line, keeps the rest', () => {
    const diff = yamlDiff('Welcome', 'workflows/welcome.yaml', { a: 1, b: 2 }, { a: 1, b: 3 });
    expect(diff.startsWith('====')).toBe(true);
    expect(diffLines(diff)).toEqual([
      '--- service: Welcome',
      '+++ workflows/welcome.yaml',
      '@@ -1,2 +1,2 @@',
      ' a: 1',
      '-b: 2',
      '+b: 3',
    ]);
  });

  it('makes control characters visible, keeping tabs', () => {
    expect(diffLines('+a\x1b[2Jb\tc\r\n')).toEqual(['+a\u241b[2Jb\tc']);
  });
});

describe('Markdown escaping', () => {
  it('inlineCode survives backticks and pads when needed', () => {
    expect(inlineCode('a')).toBe('`a`');
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
    expect(inlineCode('a ```` b')).toBe('`````a ```` b`````');
    expect(inlineCode('two\nlines')).toBe('`two lines`');
  });

  it('fencedBlock uses a fence longer than any backtick run inside', () => {
    expect(fencedBlock(['+a'], 'diff')).toBe('```diff\n+a\n```');
    const block = fencedBlock([' ```', '+````js'], 'diff');
    expect(block.split('\n')[0]).toBe('`````diff');
    expect(block.split('\n').at(-1)).toBe('`````');
  });

  it('escapeHtml leaves no tag, entity or Markdown syntax', () => {
    const out = escapeHtml('<img src=x onerror=alert(1)> & *b* `c` [l](u) | # \\ ~');
    expect(out.replace(/&#\d+;/g, '')).not.toMatch(/[<>&`*[\]|#\\~]/);
    expect(out).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#42;b&#42;');
    expect(escapeHtml('a\nb\tc')).toBe('a b c');
  });

  it('escapeProse turns backtick spans into code and escapes the rest', () => {
    expect(escapeProse('run `wfsync pull <id>` to adopt *it*')).toBe(
      'run `wfsync pull <id>` to adopt \\*it\\*',
    );
    expect(escapeProse('an odd ` backtick <b>')).toBe('an odd \\` backtick &lt;b&gt;');
  });
});
