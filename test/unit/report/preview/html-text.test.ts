import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from '../../../../src/report/preview/html-text.js';

describe('htmlToText', () => {
  it('reads an email as text: blocks as lines, links with their address, list bullets, images by alt text', () => {
    const html =
      '<!DOCTYPE html><html><head><title>x</title><style>p{color:red}</style></head><body>' +
      '<h1>Your order</h1><p>Hi   Ada,<br>it shipped.</p><!-- hidden -->' +
      '<ul><li>one</li><li>two</li></ul><p><a href="https://example.com/t?a=1&amp;b=2">Track it</a></p>' +
      '<img src="x.png" alt="Logo"><script>alert(1)</script></body></html>';
    expect(htmlToText(html)).toBe(
      'Your order\n\nHi Ada,\nit shipped.\n\n• one\n• two\n\nTrack it (https://example.com/t?a=1&b=2)\n\n[Logo]',
    );
  });

  it('keeps plain text as it is, entities decoded', () => {
    expect(htmlToText('5 &lt; 6 &amp; caf&#233; &#x1F600; &bogus;')).toBe('5 < 6 & café 😀 &bogus;');
  });

  it('does not repeat a link whose text is its address', () => {
    expect(htmlToText('<a href="https://a.test">https://a.test</a>')).toBe('https://a.test');
  });

  it('leaves unknown or out-of-range references alone', () => {
    expect(decodeEntities('&#0; &#x110000; &nope;')).toBe('&#0; &#x110000; &nope;');
  });
});
