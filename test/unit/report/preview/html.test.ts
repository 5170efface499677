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
});
