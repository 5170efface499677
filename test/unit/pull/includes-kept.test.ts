import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findIncludeReferences, replaceIncludes } from '../../../src/definitions/include-references.js';
import type { Json } from '../../../src/json.js';
import { buildDefinitionYaml } from '../../../src/pull/convert.js';
import { buildPulledIncludes, type ExistingInclude } from '../../../src/pull/includes.js';

const HTML = '<html>\n  <body>{{orderNumber}}</body>\n</html>';

function workflow(steps: Json[]): Json {
  return { name: 'order shipped', steps, triggers: [{ type: 'event', identifier: 'order-shipped' }] };
}

const email = (content: unknown, extra: Json = {}): Json => ({
  name: 'shipping email',
  template: { type: 'email', subject: 'Shipped', content, ...extra },
});

function include(pointer: string, path: string, text: string, shared = false): ExistingInclude {
  return { pointer, path, text, shared };
}

const CONTENT = '/steps/0/template/content';

describe('pull keeps text references', () => {
  it('writes the service text into the referenced file and keeps the reference', () => {
    const pulled = workflow([email(`${HTML}\n<p>new</p>`)]);
    const existing = workflow([email(HTML)]);
    const result = buildPulledIncludes({
      pulled,
      existing,
      includes: [include(CONTENT, './shipped.html', HTML)],
    });
    expect(result.writes).toEqual([
      { pointer: CONTENT, path: './shipped.html', text: `${HTML}\n<p>new</p>` },
    ]);
    expect(result.kept).toEqual([{ pointer: CONTENT, text: `${HTML}\n<p>new</p>` }]);
    expect(result.inlined).toEqual([]);
    expect(result.definition).toEqual(workflow([email({ file: './shipped.html' })]));
    // The pulled definition itself is not changed.
    expect(pulled).toEqual(workflow([email(`${HTML}\n<p>new</p>`)]));
  });

  it('writes nothing when the file already holds the text', () => {
    const pulled = workflow([email(HTML)]);
    const result = buildPulledIncludes({
      pulled,
      existing: pulled,
      includes: [include(CONTENT, './a.html', HTML)],
    });
    expect(result.writes).toEqual([]);
    expect(result.kept).toEqual([{ pointer: CONTENT, text: HTML }]);
    expect(result.definition).toEqual(workflow([email({ file: './a.html' })]));
  });

  it('gives a reference up, saying why, when the text cannot go into its file', () => {
    const blocks = [{ type: 'text', content: 'Hi' }];
    const cases: Array<[string, Json, Json, ExistingInclude[]]> = [
      [
        'the service holds blocks there, not text',
        workflow([email(blocks)]),
        workflow([email(HTML)]),
        [include(CONTENT, './a.html', HTML)],
      ],
      [
        'the step in that position is another one on the service',
        workflow([{ name: 'other step', template: { type: 'email', content: 'x' } }]),
        workflow([email(HTML)]),
        [include(CONTENT, './a.html', HTML)],
      ],
      [
        'the step in that position is another one on the service',
        workflow([{ name: 'shipping email', template: { type: 'in_app', content: 'x' } }]),
        workflow([email(HTML)]),
        [include(CONTENT, './a.html', HTML)],
      ],
      [
        'the text holds carriage returns or a byte order mark, which a file would not keep',
        workflow([email('<p>\r\n</p>')]),
        workflow([email(HTML)]),
        [include(CONTENT, './a.html', HTML)],
      ],
      [
        './a.html is also used by another definition',
        workflow([email('changed')]),
        workflow([email(HTML)]),
        [include(CONTENT, './a.html', HTML, true)],
      ],
    ];
    for (const [reason, pulled, existing, includes] of cases) {
      const result = buildPulledIncludes({ pulled, existing, includes });
      expect(result.inlined, reason).toEqual([{ pointer: CONTENT, path: './a.html', reason }]);
      expect(result.writes).toEqual([]);
      expect(result.definition).toEqual(pulled);
    }
  });

  it('a shared file that keeps its text keeps its reference', () => {
    const pulled = workflow([email(HTML)]);
    const result = buildPulledIncludes({
      pulled,
      existing: pulled,
      includes: [include(CONTENT, './a.html', HTML, true)],
    });
    expect(result.inlined).toEqual([]);
    expect(result.definition).toEqual(workflow([email({ file: './a.html' })]));
  });

  it('one file for two fields: the first takes the new text, the second goes inline if its text differs', () => {
    const pulled = workflow([email('one'), { name: 'b', template: { type: 'sms', content: 'two' } }]);
    const existing = workflow([email('same'), { name: 'b', template: { type: 'sms', content: 'same' } }]);
    const result = buildPulledIncludes({
      pulled,
      existing,
      includes: [
        include(CONTENT, './same.txt', 'same'),
        include('/steps/1/template/content', 'same.txt', 'same'),
      ],
    });
    expect(result.writes.map((w) => [w.pointer, w.text])).toEqual([[CONTENT, 'one']]);
    expect(result.inlined).toEqual([
      {
        pointer: '/steps/1/template/content',
        path: 'same.txt',
        reason: 'same.txt also holds another field, with other text',
      },
    ]);
  });

  it('a field the service no longer has drops its reference (the merge removes the key)', () => {
    const pulled = workflow([{ name: 'shipping email', template: { type: 'email', content: 'x' } }]);
    const result = buildPulledIncludes({
      pulled,
      existing: workflow([email('x')]),
      includes: [include('/steps/0/template/subject', './subject.txt', 'Shipped')],
    });
    expect(result).toMatchObject({ writes: [], kept: [], inlined: [], definition: pulled });
  });
});

describe('pull --split-content', () => {
  const split = (maxLines: number, taken: string[] = []) => ({
    maxLines,
    baseName: 'order-shipped',
    taken: (path: string) => taken.includes(path),
  });

  it('moves text of more than n lines to new files named after the definition, the step and the field', () => {
    const long = Array.from({ length: 4 }, (_, i) => `line ${i}`).join('\n');
    const pulled = workflow([
      email(long, { subject: `${long} subject` }),
      {
        template: { type: 'push', title: long, content: 'short' },
        variants: [{ name: 'VIP!', template: { type: 'sms', content: long } }],
      },
    ]);
    const result = buildPulledIncludes({ pulled, includes: [], split: split(3) });
    expect(result.writes.map((w) => [w.pointer, w.path])).toEqual([
      [CONTENT, './order-shipped.shipping-email.html'],
      ['/steps/0/template/subject', './order-shipped.shipping-email.subject.txt'],
      ['/steps/1/template/title', './order-shipped.step-2.title.txt'],
      ['/steps/1/variants/0/template/content', './order-shipped.step-2.vip.txt'],
    ]);
    expect(findIncludeReferences(result.definition).map((r) => r.path)).toEqual(
      result.writes.map((w) => w.path),
    );
    // Resolving the references again gives the pulled definition back.
    expect(
      replaceIncludes(
        result.definition,
        result.kept.map(({ pointer, text }) => ({ pointer, value: text })),
      ),
    ).toEqual(pulled);
  });

  it('leaves short text, text a file cannot hold and fields that already have a file; avoids taken names', () => {
    const three = 'a\nb\nc';
    const pulled = workflow([email(three), email(`${three}\nd`, { name: 'shipping email' })]);
    const result = buildPulledIncludes({
      pulled,
      existing: pulled,
      includes: [include('/steps/1/template/content', './kept.html', 'old')],
      split: split(3, ['./order-shipped.shipping-email.html']),
    });
    expect(result.writes.map((w) => [w.pointer, w.path])).toEqual([
      ['/steps/1/template/content', './kept.html'],
    ]);

    const fresh = buildPulledIncludes({
      pulled: workflow([email(`${three}\nd`), email(`${three}\ne`), email(`${three}\r\ne`)]),
      includes: [],
      split: split(3, ['./order-shipped.shipping-email.html']),
    });
    expect(fresh.writes.map((w) => w.path)).toEqual([
      './order-shipped.shipping-email-2.html',
      './order-shipped.shipping-email-3.html',
    ]);
  });
});

describe('buildDefinitionYaml', () => {
  it('writes references on one line, the rest in block style', () => {
    const yaml = buildDefinitionYaml(
      workflow([email({ file: './a.html' }, { subject: { file: './s.txt' } })]),
    );
    expect(yaml).toContain('      subject: { file: ./s.txt }\n      content: { file: ./a.html }\n');
    expect(
      yaml.startsWith(
        '# yaml-language-server: $schema=../schemas/workflow.schema.json\nname: order shipped\n',
      ),
    ).toBe(true);
    expect(parse(yaml)).toEqual(workflow([email({ file: './a.html' }, { subject: { file: './s.txt' } })]));
  });
});
