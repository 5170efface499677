import { describe, expect, it } from 'vitest';
import { renderPreviewHtml } from '../../../../src/report/preview/html.js';
import { decodeEntities } from '../../../../src/report/preview/html-text.js';
import { aPreviewDocument } from './fixtures.js';

describe('renderPreviewHtml', () => {
  const html = renderPreviewHtml(aPreviewDocument());

  it('renders the email only inside a sandboxed srcdoc iframe, attribute-escaped', () => {
    const iframes = html.match(/<iframe[^>]*>/g) ?? [];
    expect(iframes).toHaveLength(1);
    expect(iframes[0]).toContain('sandbox=""');
    expect(iframes[0]).not.toMatch(/allow-/);
    expect(iframes[0]).toContain(
      'srcdoc="&#60;p onclick=&#34;x()&#34;&#62;Hi &#38;amp; bye&#60;/p&#62;&#60;script&#62;window.pwned = 1&#60;/script&#62;"',
    );
  });

  it('has no script and no raw tag from a rendered string anywhere', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<b>shipped</b>');
    expect(html).toContain('Order &#34;A1&#34; &#60;b&#62;shipped&#60;/b&#62;');
    expect(html).toContain('<h2>order &#60;shipped&#62;</h2>');
  });

  it('blocks scripts and remote loads with a CSP meta; remote images only when allowed', () => {
    const cspOf = (page: string) =>
      decodeEntities(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1] ?? '');
    const csp = cspOf(html);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain('img-src data:;');
    const allowed = cspOf(renderPreviewHtml(aPreviewDocument(), { allowImages: true }));
    expect(allowed).toContain('img-src data: http: https:;');
    expect(allowed).toContain("script-src 'none'");
  });

  it('shows each kind of step in its frame, the render error in place of the step, findings with file:line:col', () => {
    expect(html).toContain('<div class="phone"><div class="bubble">Order A1 &#60;shipped&#62;</div></div>');
    expect(html).toContain('<div class="title">Shipped</div>');
    expect(html).toContain('<span class="button primary">Open</span>');
    expect(html).toContain('<div class="url">opens /orders/A1</div>');
    expect(html).toContain('no message: this step sends nothing');
    expect(html).toContain('<div class="render-error">Missing helper: &#39;shout&#39;</div>');
    expect(html).toContain('workflows/order-shipped.yaml:12:20</span> <span class="warning">warning</span>');
  });

  it('labels show control characters and bidi overrides as visible symbols; an email keeps its own', () => {
    // A service step's name and type, a workflow's name, identifier and file, a finding: text a reviewer reads.
    const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
    const unsafeIn = (text: string) => UNSAFE.test(text.replace(/[\n\t]/g, ''));
    const page = renderPreviewHtml(
      aPreviewDocument({
        identifier: 'order\u2066-shipped',
        file: 'workflows/\x07order.yaml',
        name: 'Order \u202egnippihs',
        steps: [
          {
            index: 0,
            name: 'mail \x1b]8;;https://evil\x07',
            type: 'email',
            content: '<p>Hi\u202e</p>',
            contentType: 'html',
            payload: {},
          },
          { index: 1, name: 'text\x9b31m', type: 'sms\u202e', error: 'Missing helper\x1b[2J', payload: {} },
        ],
        diagnostics: [
          {
            code: 'render-empty\x85',
            severity: 'warning',
            message: '{{x}} renders empty\u2067',
            file: 'workflows/\x1border.yaml',
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 2,
            pointer: '/steps/0',
          },
        ],
      }),
      { title: 'wfsync plan \u202dx' },
    );
    const srcdoc = /srcdoc="([^"]*)"/.exec(page)?.[1] ?? '';
    expect(srcdoc).toBe('&#60;p&#62;Hi\u202e&#60;/p&#62;');
    expect(unsafeIn(page.replace(srcdoc, ''))).toBe(false);
    expect(page).toContain('<h2>Order \ufffdgnippihs</h2>');
    expect(page).toContain('<h3>#0 mail \u241b]8;;https://evil\u2407<span class="type">email</span></h3>');
    expect(page).toContain('<h3>#1 text\ufffd31m<span class="type">sms\ufffd</span></h3>');
    expect(page).toContain('<div class="render-error">Missing helper\u241b[2J</div>');
  });
});
