import { describe, expect, it } from 'vitest';
import { brief, check, yaml } from '../../../helpers/rules.js';

const workflow = (name: string, identifier: string) => yaml`
  name: ${name}
  notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
  triggers:
    - identifier: ${identifier}
      type: event
  steps:
    - name: inbox
      template:
        type: in_app
        content: Your order shipped
`;

const codes = ['identifier-format', 'identifier-name-mismatch', 'name-slug-empty'];

describe('identifier rules', () => {
  it('accept an identifier both server generations derive from the name', () => {
    expect(check(workflow('Order Shipped', 'order-shipped'), {}, ...codes)).toEqual([]);
    expect(check(workflow('order shipped 2', 'order-shipped-2'), {}, ...codes)).toEqual([]);
  });

  it('identifier-format: rejects what the service can never produce, suggesting the slug of the name', () => {
    expect(check(workflow('Order Shipped', 'Order_Shipped'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'identifier-format',
        severity: 'error',
        line: 4,
        column: 17,
        message:
          'triggers[0].identifier "Order_Shipped" must be lower-case letters and digits separated by single ' +
          'hyphens, the form the service derives from names and applications trigger with: use `order-shipped`.',
      },
    ]);
  });

  it('identifier-format: rejects doubled and trailing hyphens', () => {
    expect(check(workflow('Order Shipped', 'order--shipped'), {}, 'identifier-format')).toHaveLength(1);
    expect(check(workflow('Order Shipped', 'order-shipped-'), {}, 'identifier-format')).toHaveLength(1);
  });

  it('identifier-name-mismatch: names the identifier the service will create when both generations agree', () => {
    expect(check(workflow('Order Shipped', 'order-sent'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'identifier-name-mismatch',
        severity: 'warning',
        line: 4,
        column: 17,
        message:
          'the service will create `order-shipped` from name "Order Shipped", not `order-sent`; wfsync would ' +
          'report a conflict after creating, so rename the workflow to "order sent" or change the identifier to ' +
          '`order-shipped`.',
      },
    ]);
  });

  it('identifier-name-mismatch: names both identifiers when the generations differ and neither matches', () => {
    expect(check(workflow('orderShipped', 'order-shipped-v2'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'identifier-name-mismatch',
        severity: 'warning',
        line: 4,
        column: 17,
        message:
          'the service will create `ordershipped` (older servers) / `order-shipped` (newer servers) from name ' +
          '"orderShipped", not `order-shipped-v2`; wfsync would report a conflict after creating, so rename the ' +
          'workflow to "order shipped v2" or change the identifier (name it with lower-case words separated by ' +
          'spaces to get the same identifier on every server).',
      },
    ]);
  });

  it('identifier-name-mismatch: warns when the identifier matches only one generation', () => {
    expect(check(workflow('orderShipped', 'order-shipped'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'identifier-name-mismatch',
        severity: 'warning',
        line: 4,
        column: 17,
        message:
          'the service will create `ordershipped` on older servers from name "orderShipped", not ' +
          '`order-shipped` (the two server generations slug this name differently); name it with lower-case ' +
          'words separated by spaces to get the same identifier on every server: "order shipped".',
      },
    ]);
    const snake = check(workflow('order_shipped', 'ordershipped'), {}, ...codes).map((d) => d.message);
    expect(snake).toEqual([expect.stringContaining('will create `order-shipped` on newer servers')]);
  });

  it('name-slug-empty: a name without letters or digits gives no identifier', () => {
    expect(check(workflow('"🚀 — !!"', 'launch'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'name-slug-empty',
        severity: 'error',
        line: 1,
        column: 7,
        message:
          'name "🚀 — !!" has no letter or digit the service can turn into an identifier, so it cannot derive ' +
          'one: add ASCII letters or digits to the name.',
      },
    ]);
  });
});
