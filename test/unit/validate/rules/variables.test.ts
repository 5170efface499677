import { describe, expect, it } from 'vitest';
import { yaml } from '../../../helpers/load-yaml.js';
import { brief, check } from '../../../helpers/rules.js';

const codes = ['variable-undeclared', 'variable-unused', 'variable-type-mismatch'];

const declared = yaml`
  name: order shipped
  notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
  triggers:
    - identifier: order-shipped
      type: event
      variables:
        - name: orderId
          type: String
        - name: items
          type: String
        - name: coupon
        - name: subscriber.firstName
  steps:
    - name: inbox
      template:
        type: in_app
        content: "Order {{orderId}}: {{#each items}}{{title}}{{/each}} {{total}}"
      filters:
        - value: AND
          children:
            - {on: payload, field: region, value: eu, operator: EQUAL}
    - name: text
      template:
        type: sms
        content: "{{total}} {{note}}"
        variables:
          - name: note
          - name: unusedHere
`;

describe('trigger variables', () => {
  it('accept declarations that match what the service derives', () => {
    const text = yaml`
      name: order shipped
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers:
        - identifier: order-shipped
          type: event
          variables:
            - {name: orderId, type: String}
            - {name: items, type: Array}
            - {name: items.title, type: String}
            - {name: vip, type: Boolean}
            - {name: region}
      steps:
        - name: inbox
          template:
            type: in_app
            content: "{{orderId}} {{#each items}}{{title}}{{/each}}{{#if vip}}!{{/if}}"
          filters: [{value: AND, children: [{on: payload, field: region, value: eu, operator: EQUAL}]}]
    `;
    expect(check(text, {}, ...codes)).toEqual([]);
  });

  it('variable-undeclared: points at each use the declarations miss, unless the step declares it', () => {
    expect(check(declared, {}, 'variable-undeclared').map(brief)).toEqual([
      {
        code: 'variable-undeclared',
        severity: 'warning',
        line: 17,
        column: 53,
        message:
          '`items.title` is used in steps[0].template.content but not declared in triggers[0].variables; the ' +
          'service will add it to the trigger, so declare it there (type String).',
      },
      {
        code: 'variable-undeclared',
        severity: 'warning',
        line: 17,
        column: 72,
        message:
          '`total` is used in steps[0].template.content but not declared in triggers[0].variables; the service ' +
          'will add it to the trigger, so declare it there (type String).',
      },
      {
        code: 'variable-undeclared',
        severity: 'warning',
        line: 21,
        column: 34,
        message:
          '`region` is used in steps[0].filters[0].children[0].field but not declared in triggers[0].variables; ' +
          'the service will add it to the trigger, so declare it there (type String).',
      },
    ]);
  });

  it('variable-undeclared: suggests the type the service keeps (its last use), pointing at the first use', () => {
    const text = yaml`
      name: order shipped
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers: [{type: event, identifier: order-shipped, variables: []}]
      steps:
        - {template: {type: sms, content: "{{items}}"}}
        - {template: {type: chat, content: "{{#each items}}x{{/each}}"}}
    `;
    expect(check(text, {}, 'variable-undeclared').map(brief)).toEqual([
      {
        code: 'variable-undeclared',
        severity: 'warning',
        line: 5,
        column: 40,
        message:
          '`items` is used in steps[0].template.content but not declared in triggers[0].variables; the service ' +
          'will add it to the trigger, so declare it there (type Array).',
      },
    ]);
  });

  it('variable-undeclared: only when the definition declares trigger variables at all', () => {
    const withoutDeclarations = declared.replace(/ {4}variables:\n( {6}- .*\n( {8}.*\n)*)+/, '');
    expect(withoutDeclarations).not.toContain('coupon');
    expect(check(withoutDeclarations, {}, 'variable-undeclared')).toEqual([]);
  });

  it('variable-unused: points at declarations the service will not derive', () => {
    expect(check(declared, {}, 'variable-unused').map(brief)).toEqual([
      {
        code: 'variable-unused',
        severity: 'warning',
        line: 11,
        column: 15,
        message:
          'triggers[0].variables[2] `coupon` is declared but the service derives no such variable from the steps ' +
          '(variants are not read), so it will not be on the trigger and every plan would show drift: remove it ' +
          'or use it.',
      },
      {
        code: 'variable-unused',
        severity: 'warning',
        line: 12,
        column: 15,
        message:
          'triggers[0].variables[3] `subscriber.firstName` is declared but the service provides it and never puts ' +
          'it on the trigger: remove it or use it.',
      },
      {
        code: 'variable-unused',
        severity: 'warning',
        line: 28,
        column: 17,
        message:
          'steps[1].template.variables[1] `unusedHere` is not used in the strings of steps[1]: remove it or use it.',
      },
    ]);
  });

  it('variable-type-mismatch: says which type the service derives and why', () => {
    expect(check(declared, {}, 'variable-type-mismatch').map(brief)).toEqual([
      {
        code: 'variable-type-mismatch',
        severity: 'warning',
        line: 10,
        column: 15,
        message:
          'triggers[0].variables[1].type is String but the service derives Array for `items` (it is used with ' +
          '`{{#each}}` in steps[0].template.content): change it to Array.',
      },
    ]);
  });

  it('variable-type-mismatch: checks a step’s template variables against their use in that step', () => {
    const text = yaml`
      name: order shipped
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      steps:
        - name: inbox
          template:
            type: in_app
            content: "{{#if vip}}VIP{{/if}}"
            variables:
              - {name: vip, type: String}
      triggers: [{type: event, identifier: order-shipped}]
    `;
    expect(check(text, {}, ...codes).map(brief)).toEqual([
      {
        code: 'variable-type-mismatch',
        severity: 'warning',
        line: 9,
        column: 29,
        message:
          'steps[0].template.variables[0].type is String but `vip` is Boolean where it is used (it is used with ' +
          '`{{#if}}` or `{{#unless}}` in steps[0].template.content): change it to Boolean.',
      },
    ]);
  });
});
