import type { Driver } from './driver.js';
import { names, runPromotion } from './promotion-scenario.js';

/**
 * One team's day on the service, as request sequences: create, read, list pages, update (kept, reordered, removed,
 * added steps, a channel change), status, delete, the changes API and promotion, Production reads and the guards.
 * Every request is recorded by the driver; relations between ids are kept as facts.
 */

// biome-ignore lint/suspicious/noExplicitAny: scenarios read deep into JSON bodies
type Json = any;

const ABSENT_ID = '0123456789abcdef01234567';

export function orderShipped(groupId: string) {
  return {
    name: 'Order Shipped',
    notificationGroupId: groupId,
    description: 'Tells a customer their order left',
    tags: ['orders'],
    steps: [
      {
        name: 'In app',
        template: {
          type: 'in_app',
          content: 'Hi {{firstName}}, order {{orderId}} shipped',
          cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
        },
      },
      {
        name: 'Email',
        filters: [
          {
            isNegated: false,
            type: 'GROUP',
            value: 'AND',
            children: [{ on: 'payload', field: 'country', value: 'FR', operator: 'EQUAL' }],
          },
        ],
        template: {
          type: 'email',
          subject: 'Your order {{orderId}}',
          content: [{ type: 'text', content: 'Hello {{firstName}}' }],
        },
      },
      { name: 'SMS', template: { type: 'sms', content: 'Order {{orderId}} shipped' } },
    ],
  };
}

function passwordReset(groupId: string) {
  return {
    name: 'Password Reset',
    notificationGroupId: groupId,
    active: true,
    critical: true,
    steps: [
      {
        name: 'Email',
        template: {
          type: 'email',
          contentType: 'customHtml',
          subject: 'Reset {{notScanned}}',
          content: '<a href="{{resetUrl}}">Reset</a>',
        },
      },
    ],
  };
}

function weeklyDigest(groupId: string) {
  return {
    name: 'Weekly Digest',
    notificationGroupId: groupId,
    preferenceSettings: { sms: false },
    data: { team: 'growth' },
    steps: [
      {
        name: 'Digest',
        template: { type: 'digest' },
        metadata: { type: 'regular', amount: 1, unit: 'weeks', digestKey: 'accountId' },
      },
      {
        name: 'Summary',
        template: {
          type: 'in_app',
          content:
            '{{#each items}}{{title}}{{/each}} {{#if urgent}}!{{/if}} {{uppercase team}} {{subscriber.firstName}}',
        },
      },
    ],
  };
}

const pageOf = (body: Json) => ({ ...body, data: body?.data?.length });
const withoutIdentity = (body: Json) => ({ ...body, data: { ...body.data, identifier: '<random>' } });

export async function runScenario(d: Driver): Promise<void> {
  const group = d.service.groupId;
  const workflows = '/v1/workflows';

  await d.call('me (Development)', 'GET', '/v1/environments/me', { record: withoutIdentity });
  await d.call('me (Production)', 'GET', '/v1/environments/me', { key: 'prod', record: withoutIdentity });
  await d.call('groups (Development)', 'GET', '/v1/notification-groups');
  await d.call('groups (Production)', 'GET', '/v1/notification-groups', { key: 'prod' });
  await d.call('no key', 'GET', `${workflows}/${ABSENT_ID}`, { key: 'none' });
  await d.call('other scheme', 'GET', `${workflows}/${ABSENT_ID}`, { key: 'bearer' });
  await d.call('unknown key', 'GET', `${workflows}/${ABSENT_ID}`, { key: 'unknown' });

  // Creates.
  await d.call('create: empty body', 'POST', workflows, { json: {} });
  await d.call('create: group not an id', 'POST', workflows, {
    json: { ...orderShipped(group), notificationGroupId: 'x' },
  });
  await d.call('create: step without template', 'POST', workflows, {
    json: { ...orderShipped(group), steps: [{ name: 'x' }] },
  });
  await d.call('create: unknown step type', 'POST', workflows, {
    json: { ...orderShipped(group), steps: [{ template: { type: 'fax', content: 'x' } }] },
  });
  await d.call('create: Production key', 'POST', workflows, { key: 'prod', json: orderShipped(group) });
  const a = (await d.call('create A', 'POST', workflows, { json: orderShipped(group) })).data;
  const b = (await d.call('create B', 'POST', workflows, { json: passwordReset(group) })).data;
  const c = (await d.call('create C', 'POST', workflows, { json: weeklyDigest(group) })).data;
  const dup = (
    await d.call('create A again', 'POST', workflows, { json: orderShipped(group), record: 'status' })
  ).data;
  const dupIdentifier: string = dup.triggers[0].identifier;
  d.fact(
    'a second create is a silent duplicate',
    dupIdentifier !== 'order-shipped' && dupIdentifier.startsWith('order-shipped-'),
  );
  d.fact(
    'steps: _id = _templateId = template._id',
    a.steps.every((s: Json) => s._id === s._templateId && s.template._id === s._id),
  );
  d.fact(
    'steps: _parentId chains',
    a.steps.map((s: Json, i: number) => s._parentId === (i === 0 ? null : a.steps[i - 1]._id)),
  );

  // Reads.
  await d.call('get A by id', 'GET', `${workflows}/${a._id}`);
  await d.call('get B by identifier', 'GET', `${workflows}/password-reset`);
  await d.call('get C (twin)', 'GET', `/v1/notification-templates/${c._id}`);
  await d.call('get absent id', 'GET', `${workflows}/${ABSENT_ID}`);
  await d.call('get absent identifier', 'GET', `${workflows}/no-such-workflow`);
  const first = await d.call('list page 0', 'GET', `${workflows}?page=0&limit=3`, { record: pageOf });
  const second = await d.call('list page 1', 'GET', `${workflows}?page=1&limit=3`, { record: pageOf });
  d.fact('list pages hold every workflow once', [...names(first), ...names(second)].sort());

  // Updates.
  const [inApp, email, sms] = a.steps;
  const edited = (
    await d.call('update A: reorder, keep, drop, add, channel change', 'PUT', `${workflows}/${a._id}`, {
      json: {
        name: 'Order Shipped',
        description: '',
        steps: [
          {
            name: 'SMS',
            _templateId: sms._templateId,
            template: { type: 'sms', content: 'Order {{orderId}} is on its way' },
          },
          {
            name: 'Chat now',
            _templateId: inApp._templateId,
            template: { type: 'chat', content: 'Hey {{firstName}}' },
          },
          { name: 'Push', template: { type: 'push', title: 'Shipped', content: '{{orderId}} shipped' } },
        ],
      },
    })
  ).data;
  d.fact('update: kept templates by _templateId, order from the array', [
    edited.steps[0]._templateId === sms._templateId,
    edited.steps[1]._templateId === inApp._templateId,
    edited.steps[2]._templateId !== email._templateId,
  ]);
  d.fact('update: a kept template keeps its type', edited.steps[1].template.type);
  d.fact('update: updatedAt moves', edited.updatedAt > a.updatedAt);
  await d.call('get A after update', 'GET', `${workflows}/${a._id}`);
  await d.call('update: nothing to update', 'PUT', `${workflows}/${a._id}`, { json: {} });
  await d.call('update: empty description only', 'PUT', `${workflows}/${a._id}`, {
    json: { description: '' },
  });
  await d.call('update: absent id', 'PUT', `${workflows}/${ABSENT_ID}`, { json: { name: 'X' } });
  await d.call('update: unknown template', 'PUT', `${workflows}/${a._id}`, {
    json: { steps: [{ _templateId: ABSENT_ID, template: { type: 'sms', content: 'x' } }] },
  });
  await d.call('update: identifier taken', 'PUT', `${workflows}/${a._id}`, {
    json: { identifier: 'password-reset' },
  });
  await d.call('update: step without template', 'PUT', `${workflows}/${a._id}`, {
    json: { steps: [{ name: 'x' }] },
  });
  await d.call('update: tags cleared (twin)', 'PUT', `/v1/notification-templates/${a._id}`, {
    json: { tags: [] },
  });

  // Status.
  await d.call('status: unchanged', 'PUT', `${workflows}/${a._id}/status`, { json: { active: false } });
  await d.call('status: Production key', 'PUT', `${workflows}/${a._id}/status`, {
    key: 'prod',
    json: { active: true },
  });
  await d.call('status: activate', 'PUT', `${workflows}/${a._id}/status`, { json: { active: true } });

  // Deletes.
  await d.call('delete: Production key', 'DELETE', `${workflows}/${dup._id}`, { key: 'prod' });
  await d.call('delete the duplicate', 'DELETE', `${workflows}/${dup._id}`);
  await d.call('get after delete', 'GET', `${workflows}/${dup._id}`);
  await d.call('delete again', 'DELETE', `${workflows}/${dup._id}`);
  await d.call('delete absent', 'DELETE', `/v1/notification-templates/${ABSENT_ID}`);
  await d.call('list after delete', 'GET', `${workflows}?page=0&limit=10`, { record: pageOf });

  await runPromotion(d, { a, b, c });
}
