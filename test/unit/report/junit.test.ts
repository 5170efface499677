import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { renderJunit } from '../../../src/report/junit.js';
import { buildFixtureReport, diagnostic, reportOf } from './fixture-report.js';
import { parseXml, type XmlElement } from './xml-check.js';

function d(file: string, severity: Severity, message = 'm', code = `${severity}-code`): Diagnostic {
  return diagnostic(file, { line: 2, column: 3, endLine: 2, endColumn: 4 }, { code, severity, message });
}

const render = (diagnostics: Diagnostic[], files?: string[]) =>
  renderJunit({ ...reportOf(diagnostics), ...(files ? { files } : {}) }, { color: false });

function testcase(root: XmlElement, file: string): XmlElement {
  const suite = root.children.find((s) => s.attributes.name === file);
  const [tc] = suite?.children ?? [];
  if (!tc) throw new Error(`no testcase for ${file}`);
  return tc;
}

describe('renderJunit', () => {
  it('writes well-formed XML: one suite and one test case per checked file, failing files counted', () => {
    const root = parseXml(renderJunit(buildFixtureReport(), { color: false }));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toEqual({ name: 'wfsync validate', tests: '3', failures: '2', errors: '0' });
    expect(root.children.map((s) => [s.name, s.attributes.name, s.attributes.failures])).toEqual([
      ['testsuite', 'workflows/digest.yaml', '0'],
      ['testsuite', 'workflows/order.yaml', '1'],
      ['testsuite', 'workflows/welcome.yaml', '1'],
    ]);
    const clean = testcase(root, 'workflows/digest.yaml');
    expect(clean).toMatchObject({
      attributes: { classname: 'wfsync.validate', name: 'workflows/digest.yaml' },
    });
    expect(clean.children).toEqual([]);
  });

  it('gives a failing file one failure listing all its errors, and lists warnings and infos as output', () => {
    const root = parseXml(
      render([
        d('a.yaml', 'error', 'first'),
        d('a.yaml', 'warning', 'careful'),
        d('a.yaml', 'error', 'second', 'other'),
      ]),
    );
    const tc = testcase(root, 'a.yaml');
    expect(tc.children.map((c) => c.name)).toEqual(['failure', 'system-out']);
    const [failure, out] = tc.children;
    expect(failure?.attributes).toEqual({ message: '2:3 first (and 1 more)', type: 'error-code' });
    expect(failure?.text).toBe('a.yaml:2:3 error first [error-code]\na.yaml:2:3 error second [other]');
    expect(out?.text).toBe('a.yaml:2:3 warning careful [warning-code]');
  });

  it('keeps a file with only warnings passing', () => {
    const root = parseXml(render([d('a.yaml', 'warning'), d('b.yaml', 'info')]));
    expect(root.attributes.failures).toBe('0');
    for (const file of ['a.yaml', 'b.yaml']) {
      expect(testcase(root, file).children.map((c) => c.name)).toEqual(['system-out']);
    }
  });

  it('escapes markup and keeps line breaks and tabs in attributes as references', () => {
    const message = 'a <b> & "c" \'d\'\n\te]]>';
    const xml = render([d('x&y<z>.yaml', 'error', message)]);
    expect(xml).toContain('message="2:3 a &lt;b&gt; &amp; &quot;c&quot; \'d\'&#10;&#9;e]]&gt;"');
    const tc = testcase(parseXml(xml), 'x&y<z>.yaml');
    expect(tc.children[0]?.attributes.message).toBe(`2:3 ${message}`);
  });

  it('writes characters XML 1.0 forbids as visible text instead of breaking the document', () => {
    const xml = render([d('a.yaml', 'error', 'nul\u0000 esc\u001b bell\u0007 ffff\uffff lone\ud800 cr\r')]);
    const failure = testcase(parseXml(xml), 'a.yaml').children[0];
    expect(failure?.text).toContain('nul\\u0000 esc\\u001B bell\\u0007 ffff\\uFFFF lone\\uD800 cr\n');
    expect(failure?.attributes.message).toContain('cr\r');
  });

  it('writes an empty root for no files', () => {
    expect(parseXml(render([], [])).attributes.tests).toBe('0');
  });

  it('stays well-formed and keeps every allowed character for any file name and message (property)', () => {
    const forbidden = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
    const visible = (text: string) =>
      text.replace(forbidden, (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1 }),
        fc.string({ unit: 'binary' }),
        (file, message) => {
          const failure = testcase(parseXml(render([d(file, 'error', message)])), visible(file)).children[0];
          expect(failure?.attributes.message).toBe(`2:3 ${visible(message)}`);
        },
      ),
    );
  });
});
