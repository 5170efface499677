import { describe, expect, it } from 'vitest';
import {
  buildRuleDiagnostics,
  KNOWN_RULE_CODES,
  RULES,
  ruleInfos,
} from '../../../../src/validate/rules/index.js';
import { loadYaml, yaml } from '../../../helpers/load-yaml.js';
import { check } from '../../../helpers/rules.js';

/** A realistic definition that uses most features correctly: no rule may fire on it. */
const clean = yaml`
  name: order shipped
  notificationGroupId: group:transactional
  triggers:
    - identifier: order-shipped
      type: event
      variables:
        - {name: orderId, type: String}
        - {name: items, type: Array}
        - {name: items.title, type: String}
        - {name: vip, type: Boolean}
        - {name: region, type: String}
        - {name: sendAt, type: String}
  steps:
    - name: inbox
      uuid: s1
      template:
        type: in_app
        content: "Order {{orderId}} shipped{{#if vip}} (priority){{/if}}, hi {{subscriber.firstName}}"
        cta: {type: redirect, data: {url: "/orders/{{orderId}}"}}
      filters:
        - value: AND
          children: [{on: payload, field: region, value: eu, operator: EQUAL}]
    - name: wait
      uuid: s2
      template: {type: delay}
      metadata: {type: scheduled, delayPath: sendAt}
    - name: email
      uuid: s3
      template:
        type: email
        subject: "Your order {{orderId}}"
        content:
          - type: text
            content: |
              {{#each items}}
                - {{title}}
              {{/each}}
      filters:
        - value: OR
          children:
            - {on: isOnline, value: false}
            - {on: previousStep, step: s1, stepType: unseen}
      variants:
        - name: email for vip
          uuid: s3v
          template: {type: email, subject: "VIP order {{orderId}}", content: [{type: text, content: Thanks}]}
          filters: [{value: AND, children: [{on: subscriber, field: tier, value: gold, operator: EQUAL}]}]
`;

describe('rule engine', () => {
  it('finds nothing on a clean, realistic definition', () => {
    expect(check(clean, { notificationGroups: ['transactional'] })).toEqual([]);
  });

  it('lists every rule once, the project-wide one included', () => {
    const infos = ruleInfos();
    const codes = infos.map((i) => i.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...KNOWN_RULE_CODES]);
    expect(codes).toEqual([
      'identifier-duplicate',
      ...RULES.map((r) => r.code),
      'suppression-reason-missing',
      'suppression-unknown-rule',
      'suppression-unused',
    ]);
    for (const info of infos) {
      expect(info.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(info.description.length).toBeGreaterThan(20);
      expect(['error', 'warning', 'info']).toContain(info.defaultSeverity);
    }
  });

  it('applies severity overrides and drops rules turned off', () => {
    const text = clean
      .replace('identifier: order-shipped', 'identifier: Order_Shipped')
      .replace(/ *subject: "Your order.*\n/, '');
    const defaults = check(text, { notificationGroups: ['transactional'] });
    expect(defaults.map((d) => [d.code, d.severity])).toEqual([
      ['identifier-format', 'error'],
      ['email-subject-missing', 'warning'],
    ]);
    const overridden = check(text, {
      notificationGroups: ['transactional'],
      severities: { 'identifier-format': 'warning', 'email-subject-missing': 'off' },
    });
    expect(overridden.map((d) => [d.code, d.severity])).toEqual([['identifier-format', 'warning']]);
  });

  it('runs per-file rules only on schema-valid definitions, and fills in file and pointer', () => {
    const bad = loadYaml(
      'name: x\nnotificationGroupId: group:Nope\nsteps:\n  - {template: {type: sms}}\n',
      'workflows/bad.yaml',
    );
    expect(buildRuleDiagnostics({ valid: [], all: [bad], options: {} })).toEqual([]);
    const found = buildRuleDiagnostics({ valid: [bad], all: [bad], options: { notificationGroups: [] } });
    expect(found.map((d) => [d.file, d.code, d.pointer])).toEqual([
      ['workflows/bad.yaml', 'notification-group-unknown', '/notificationGroupId'],
      ['workflows/bad.yaml', 'step-content-missing', '/steps/0/template'],
    ]);
  });
});
