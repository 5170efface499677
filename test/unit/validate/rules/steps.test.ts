import { describe, expect, it } from 'vitest';
import { yaml } from '../../../helpers/load-yaml.js';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

const text = yaml`
  name: order shipped
  notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
  steps:
    - name: inbox
      uuid: a1
      template: {type: in_app, content: hi}
    - name: text
      uuid: b2
      template: {type: sms, content: hi}
      variants:
        - name: text
          uuid: a1
          template: {type: sms, content: hello}
          filters: [{value: AND, children: [{on: isOnline, value: true}]}]
    - name: inbox
      uuid: b2
      template: {type: chat, content: hi}
`;

describe('step-name-duplicate and step-uuid-duplicate', () => {
  it('accept distinct names and uuids', () => {
    const distinct = text
      .replace(/name: inbox\n(\s+)uuid: b2/, 'name: chat\n$1uuid: c3')
      .replace(/uuid: a1\n(\s+)template: \{type: sms/, 'uuid: d4\n$1template: {type: sms');
    expect(check(distinct + TRIGGER, {}, 'step-name-duplicate', 'step-uuid-duplicate')).toEqual([]);
  });

  it('report the later step, naming the first one and its line', () => {
    expect(check(text + TRIGGER, {}, 'step-name-duplicate', 'step-uuid-duplicate').map(brief)).toEqual([
      {
        code: 'step-uuid-duplicate',
        severity: 'error',
        line: 12,
        column: 15,
        message:
          'steps[1].variants[0].uuid "a1" is already used by steps[0].uuid (line 5): filters and the service ' +
          'refer to steps by uuid, so make it unique.',
      },
      {
        code: 'step-name-duplicate',
        severity: 'error',
        line: 15,
        column: 11,
        message:
          'steps[2].name "inbox" is already used by steps[0].name (line 4): step names tell steps apart in the ' +
          'plan and the dashboard, so make it unique.',
      },
      {
        code: 'step-uuid-duplicate',
        severity: 'error',
        line: 16,
        column: 11,
        message:
          'steps[2].uuid "b2" is already used by steps[1].uuid (line 8): filters and the service refer to steps ' +
          'by uuid, so make it unique.',
      },
    ]);
  });
});
