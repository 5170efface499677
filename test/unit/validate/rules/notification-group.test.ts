import { describe, expect, it } from 'vitest';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

const workflow = (group: string) =>
  `name: order shipped\nnotificationGroupId: ${group}\nsteps: [{template: {type: sms, content: hi}}]\n${TRIGGER}`;
const codes = ['notification-group-unknown', 'notification-group-unresolved'];

describe('notification-group-unknown and notification-group-unresolved', () => {
  it('accept a known group name and a literal id', () => {
    expect(
      check(workflow('group:general'), { notificationGroups: ['general', 'billing'] }, ...codes),
    ).toEqual([]);
    expect(check(workflow('64b7f0a1c2d3e4f5a6b7c8d9'), {}, ...codes)).toEqual([]);
  });

  it('notification-group-unknown lists the known names', () => {
    expect(
      check(workflow('group:genral'), { notificationGroups: ['billing', 'general'] }, ...codes).map(brief),
    ).toEqual([
      {
        code: 'notification-group-unknown',
        severity: 'error',
        line: 2,
        column: 22,
        message:
          'notificationGroupId names group "genral", which notificationGroups in wfsync.config.yaml does not ' +
          'define (known: "billing" or "general"): use a defined name or add it to every target.',
      },
    ]);
    const none = check(workflow('group:general'), { notificationGroups: [] }, ...codes);
    expect(none.map((d) => d.message)).toEqual([expect.stringContaining('(none are defined)')]);
  });

  it('notification-group-unresolved without a config that defines groups', () => {
    expect(check(workflow('group:general'), {}, ...codes).map(brief)).toEqual([
      {
        code: 'notification-group-unresolved',
        severity: 'warning',
        line: 2,
        column: 22,
        message:
          'notificationGroupId "group:general" cannot be resolved without a wfsync.config.yaml target that ' +
          'defines notificationGroups: add one that maps "general" to the group\'s id.',
      },
    ]);
  });
});
