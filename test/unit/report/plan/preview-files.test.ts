import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPreviewFiles, PREVIEW_INDEX, uniqueSlug } from '../../../../src/report/plan/preview-files.js';
import { assertProperty } from '../../../helpers/fc-assert.js';
import { runs } from '../../../helpers/fc-runs.js';
import { aWorkflow } from '../../../helpers/workflow.js';

const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.html$/;

describe('uniqueSlug', () => {
  it('makes a plain, unique name of any identifier', () => {
    const taken = new Set<string>();
    expect(uniqueSlug('Order_Shipped!', taken)).toBe('order-shipped');
    expect(uniqueSlug('order-shipped', taken)).toBe('order-shipped-2');
    expect(uniqueSlug('../../etc/passwd', taken)).toBe('etc-passwd');
    expect(uniqueSlug('index', taken)).toBe('index-workflow');
    expect(uniqueSlug('CON', taken)).toBe('con-workflow');
    expect(uniqueSlug('日本', taken)).toBe('workflow');
    expect(uniqueSlug('', taken)).toBe('workflow-2');
    expect(uniqueSlug('x'.repeat(200), taken)).toBe('x'.repeat(80));
  });

  it('property: every name is a bare file name, distinct from the others and from the index', () => {
    assertProperty(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 100 }), { maxLength: 20 }), (ids) => {
        const taken = new Set<string>();
        const names = ids.map((id) => `${uniqueSlug(id, taken)}.html`);
        for (const name of names) expect(name).toMatch(FILE_NAME);
        expect(new Set([...names, PREVIEW_INDEX]).size).toBe(names.length + 1);
      }),
      { numRuns: runs(100) },
    );
  });
});

describe('buildPreviewFiles', () => {
  it("one page per workflow (the service's version beside a differing one) and an index; no script anywhere", () => {
    const mine = aWorkflow({
      steps: [
        {
          name: 'Mail',
          template: {
            type: 'email',
            contentType: 'customHtml',
            subject: 'Hi',
            content: '<p>New {{orderId}}</p><script>alert(1)</script>',
          },
        },
      ],
    });
    const theirs = aWorkflow({
      steps: [
        {
          name: 'Mail',
          template: { type: 'email', contentType: 'customHtml', subject: 'Hi', content: '<p>Old</p>' },
        },
      ],
    });
    const files = buildPreviewFiles([
      {
        identifier: 'order-shipped',
        file: 'workflows/a.yaml',
        action: 'changed-locally',
        workflow: mine,
        service: theirs,
      },
      { identifier: '<b>new</b>', file: 'workflows/b.yaml', action: 'create', workflow: aWorkflow() },
    ]);
    expect(files.map((f) => f.name)).toEqual(['order-shipped.html', 'b-new-b.html', 'index.html']);
    for (const file of files) expect(file.text).not.toMatch(/<script/i);
    const [page, created, index] = files;
    expect(page!.text).toContain('order shipped (this change)');
    expect(page!.text).toContain('order shipped (on the service now)');
    expect(page!.text).toContain('&#60;p&#62;Old&#60;/p&#62;');
    expect(created!.text).not.toContain('(on the service now)');
    expect(index!.text).toContain(
      '<a href="b-new-b.html">&#60;b&#62;new&#60;/b&#62;</a> · create · workflows/b.yaml',
    );
  });
});

describe('buildPreviewFiles: layouts', () => {
  it("says beside each email that its layout is not shown, naming the step's layoutId", () => {
    const workflow = aWorkflow({
      steps: [
        {
          name: 'Mail',
          template: {
            type: 'email',
            contentType: 'customHtml',
            subject: 'Hi',
            content: '<p>Hi</p>',
            layoutId: 'brand',
          },
        },
      ],
    });
    const [page] = buildPreviewFiles([
      { identifier: 'mail', file: 'workflows/mail.yaml', action: 'create', workflow },
    ]);
    expect(page!.text).toContain(
      '<dt>Layout</dt><dd>not shown: the service puts this body into layout &#34;brand&#34; (wfsync cannot read layouts)</dd>',
    );
  });
});

describe('buildPreviewFiles: hostile labels', () => {
  it("a service step's name, an identifier and a file show a bidi override or ESC as a visible symbol", () => {
    const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
    const unsafeIn = (text: string) => UNSAFE.test(text.replace(/[\n\t]/g, ''));
    const step = (name: string) => ({ name, template: { type: 'sms' as const, content: 'Hi' } });
    const files = buildPreviewFiles([
      {
        identifier: 'order\u202e-shipped',
        file: 'workflows/\x1b[2Ja.yaml',
        action: 'changed-locally',
        workflow: aWorkflow({ steps: [step('Text')] }),
        service: aWorkflow({ name: 'Order \u2066shipped', steps: [step('Text\u202e\x07')] }),
      },
    ]);
    for (const file of files) expect(unsafeIn(file.text)).toBe(false);
    const [page, index] = files;
    expect(page!.text).toContain('<h3>#0 Text\ufffd\u2407<span class="type">sms</span></h3>');
    expect(index!.text).toContain('order\ufffd-shipped</a> · changed-locally · workflows/\u241b[2Ja.yaml');
  });
});
