import { describe, expect, it } from 'vitest';
import { renderPreviewHuman } from '../../../../src/report/preview/human.js';
import { renderPreviewJson } from '../../../../src/report/preview/json.js';
import { jsonOutputProblems } from '../../../helpers/json-output.js';
import { aPreviewDocument } from './fixtures.js';

describe('renderPreviewHuman', () => {
  const text = renderPreviewHuman(aPreviewDocument(), { color: false, sources: new Map() });

  it('prints each step as its recipient sees it', () => {
    expect(text).toContain(
      [
        '── #0 email · email ──',
        '   From:      Shop',
        '   Subject:   Order "A1" <b>shipped</b>',
        '   Preheader: On its way',
        '',
        '   Hi & bye',
      ].join('\n'),
    );
    expect(text).toContain('── #1 sms · sms ──\n   Order A1 <shipped>');
    expect(text).toContain('── #2 push · push ──\n   Title:     Shipped\n\n   A1');
    expect(text).toContain('   Opens:     /orders/A1\n   Button:    [ Open ] (primary)');
    expect(text).toContain('── #4 wait · digest ──\n   (no message: this step sends nothing)');
    expect(text).toContain("   ✖ the service would fail to render this step: Missing helper: 'shout'");
    expect(text).toContain('workflows/order-shipped.yaml:12:20');
  });

  it('makes control characters from a rendered string visible, even with colour on', () => {
    expect(text).not.toContain('\x1b');
    const colored = renderPreviewHuman(aPreviewDocument(), { color: true, sources: new Map() });
    expect(colored).not.toContain('\x1b[31m A1');
  });
});

describe('renderPreviewJson', () => {
  it('prints the document with diagnostics key by key, one trailing newline', () => {
    const json = renderPreviewJson(aPreviewDocument());
    expect(json.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(json);
    expect(parsed.schemaVersion).toBe(4);
    expect(Object.keys(parsed.workflows[0].diagnostics[0])).toEqual([
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'severity',
      'code',
      'message',
      'pointer',
    ]);
    expect(parsed.workflows[0].steps[3].content).toBe('Your order\x1b[31m A1');
    expect(jsonOutputProblems('preview', parsed)).toEqual([]);
    expect(jsonOutputProblems('preview', { ...parsed, extra: 1 })).not.toEqual([]);
  });
});
