import type { PreviewDocument, PreviewWorkflow } from '../../../../src/report/preview/document.js';

/** A preview document with one step of every kind, its strings hostile where that matters. */
export function aPreviewDocument(overrides: Partial<PreviewWorkflow> = {}): PreviewDocument {
  const payload = { orderId: 'A1' };
  return {
    schemaVersion: 4,
    workflows: [
      {
        identifier: 'order-shipped',
        file: 'workflows/order-shipped.yaml',
        name: 'order <shipped>',
        subscriber: { firstName: 'Ada' },
        steps: [
          {
            index: 0,
            name: 'email',
            type: 'email',
            subject: 'Order "A1" <b>shipped</b>',
            preheader: 'On its way',
            senderName: 'Shop',
            content: '<p onclick="x()">Hi &amp; bye</p><script>window.pwned = 1</script>',
            contentType: 'html',
            payload,
          },
          { index: 1, name: 'sms', type: 'sms', content: 'Order A1 <shipped>', contentType: 'text', payload },
          { index: 2, name: 'push', type: 'push', title: 'Shipped', content: 'A1', payload },
          {
            index: 3,
            name: 'inbox',
            type: 'in_app',
            content: 'Your order\x1b[31m A1',
            cta: { url: '/orders/A1', buttons: [{ type: 'primary', content: 'Open' }] },
            payload,
          },
          { index: 4, name: 'wait', type: 'digest', payload },
          { index: 5, name: 'chat', type: 'chat', payload, error: "Missing helper: 'shout'" },
        ],
        diagnostics: [
          {
            code: 'render-empty',
            severity: 'warning',
            message: '{{ammount}} renders empty',
            file: 'workflows/order-shipped.yaml',
            line: 12,
            column: 20,
            endLine: 12,
            endColumn: 31,
            pointer: '/steps/1/template/content',
          },
        ],
        ...overrides,
      },
    ],
  };
}
