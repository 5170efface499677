import { describe, expect, it } from 'vitest';
import type { WorkflowStep } from '../../../src/generated/workflow.js';
import { buildStepFlow } from '../../../src/plan/step-flow.js';

const flowOf = (steps: WorkflowStep[], changes: Parameters<typeof buildStepFlow>[2] = []) =>
  buildStepFlow('order-shipped', { steps }, changes);

describe('buildStepFlow', () => {
  it('names each channel step, or gives its type and position when it has no name', () => {
    const flow = flowOf([
      { name: 'Receipt', template: { type: 'email', subject: 'Hi', content: 'x' } },
      { template: { type: 'sms', content: 'x' } },
    ]);
    expect(flow).toEqual({
      trigger: 'order-shipped',
      steps: [
        { index: 0, name: 'Receipt', type: 'email' },
        { index: 1, name: 'sms 2', type: 'sms' },
      ],
    });
  });

  it('says what a delay waits: an amount in its unit (singular for one), or until a payload date', () => {
    const flow = flowOf([
      { name: 'wait', template: { type: 'delay' }, metadata: { type: 'regular', amount: 2, unit: 'hours' } },
      { name: 'one', template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'days' } },
      { name: 'then', template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } },
    ]);
    expect(flow.steps.map((s) => s.detail)).toEqual(['2 hours', '1 day', 'until sendAt']);
  });

  it("says a digest's window: regular, backoff, timed, and the key it splits by", () => {
    const flow = flowOf([
      {
        template: { type: 'digest' },
        metadata: { type: 'regular', amount: 30, unit: 'minutes', digestKey: 'orderId' },
      },
      {
        template: { type: 'digest' },
        metadata: { type: 'backoff', amount: 1, unit: 'hours', backoffAmount: 5, backoffUnit: 'minutes' },
      },
      {
        template: { type: 'digest' },
        metadata: { type: 'timed', timed: { atTime: '09:00', weekDays: ['monday', 'friday'] } },
      },
      {
        template: { type: 'digest' },
        metadata: {
          type: 'timed',
          timed: { atTime: '08:30', monthlyType: 'on', ordinal: 'last', ordinalValue: 'friday' },
        },
      },
    ]);
    expect(flow.steps.map((s) => s.detail)).toEqual([
      '30 minutes, by orderId',
      '1 hour, backoff 5 minutes',
      'at 09:00 on monday, friday',
      'at 08:30 on the last friday',
    ]);
  });

  it('summarises each filter group, children joined by the group operator; a previous step by its name', () => {
    const flow = flowOf([
      { name: 'Inbox', uuid: 'u-inbox', template: { type: 'in_app', content: 'x' } },
      {
        name: 'Reminder',
        template: { type: 'email', content: 'x', subject: 's' },
        filters: [
          {
            value: 'AND',
            children: [
              { on: 'payload', field: 'amount', operator: 'LARGER', value: '100' },
              { on: 'subscriber', field: 'locale', operator: 'EQUAL', value: 'de' },
            ],
          },
          {
            value: 'OR',
            children: [
              { on: 'previousStep', step: 'u-inbox', stepType: 'unread' },
              { on: 'isOnline', value: false },
              { on: 'payload', field: 'vip', operator: 'IS_DEFINED' },
            ],
          },
          { value: 'AND', children: [] },
        ],
      },
    ]);
    expect(flow.steps[1]!.conditions).toEqual([
      'payload.amount > "100" AND subscriber.locale = "de"',
      'Inbox unread OR subscriber offline OR payload.vip is defined',
      'always',
    ]);
  });

  it('marks inactive steps, counts variants, and marks the steps a change points into', () => {
    const flow = flowOf(
      [
        { name: 'a', active: false, template: { type: 'chat', content: 'x' } },
        {
          name: 'b',
          template: { type: 'push', title: 't', content: 'x' },
          variants: [
            {
              name: 'vip',
              template: { type: 'push', content: 'y' },
              filters: [
                { value: 'AND', children: [{ on: 'payload', field: 'v', operator: 'EQUAL', value: '1' }] },
              ],
            },
          ],
        },
        { name: 'c', template: { type: 'custom' } },
      ],
      [
        { pointer: '/steps/1/template/content', path: 'steps[1].template.content', kind: 'changed' },
        { pointer: '/name', path: 'name', kind: 'changed' },
      ],
    );
    expect(flow.steps.map((s) => [s.name, s.inactive, s.variants, s.changed])).toEqual([
      ['a', true, undefined, undefined],
      ['b', undefined, 1, true],
      ['c', undefined, undefined, undefined],
    ]);
  });
});
