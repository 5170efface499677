import { describe, expect, it } from 'vitest';
import { buildCreatePreview } from '../../../src/plan/preview.js';
import { aWorkflow } from '../../helpers/workflow.js';
import { desiredOf, GROUP_ID, OTHER_GROUP_ID } from './helpers.js';

describe('buildCreatePreview', () => {
  it('derives the payload as the service will when the trigger declares none', () => {
    const definition = aWorkflow({
      steps: [
        {
          name: 'mail',
          template: {
            type: 'email',
            subject: 'Order {{orderId}}',
            content: [
              { type: 'text', content: 'Hi {{subscriber.firstName}}, {{#each items}}{{title}}{{/each}}' },
            ],
          },
        },
        { name: 'inbox', active: false, template: { type: 'in_app', content: 'Order {{orderId}} shipped' } },
      ],
    });
    expect(buildCreatePreview(desiredOf(definition))).toEqual({
      trigger: 'order-shipped',
      steps: [
        { name: 'mail', type: 'email', subject: 'Order {{orderId}}' },
        { name: 'inbox', type: 'in_app', active: false },
      ],
      payload: [
        { name: 'orderId', type: 'String' },
        { name: 'items', type: 'Array' },
        { name: 'items.title', type: 'String' },
      ],
      payloadFrom: 'derived',
      subscriberVariables: ['email'],
      group: { id: GROUP_ID, from: 'default' },
    });
  });

  it('shows the declared trigger lists and the named group as the config resolves it', () => {
    const definition = aWorkflow({
      notificationGroupId: 'group:transactional',
      triggers: [
        {
          type: 'event',
          identifier: 'order-shipped',
          variables: [{ name: 'orderId' }],
          subscriberVariables: [{ name: 'phone' }],
        },
      ],
    });
    expect(buildCreatePreview(desiredOf(definition))).toMatchObject({
      payload: [{ name: 'orderId' }],
      payloadFrom: 'declared',
      subscriberVariables: ['phone'],
      group: { id: OTHER_GROUP_ID, name: 'transactional', from: 'named' },
    });
  });

  it('an id written in the file is shown as an id; steps without a name or template still read', () => {
    const definition = aWorkflow({
      notificationGroupId: OTHER_GROUP_ID,
      steps: [
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } } as never,
      ],
    });
    const preview = buildCreatePreview(desiredOf(definition));
    expect(preview.group).toEqual({ id: OTHER_GROUP_ID, from: 'id' });
    expect(preview.steps).toEqual([{ name: 'step 1', type: 'delay' }]);
  });
});
