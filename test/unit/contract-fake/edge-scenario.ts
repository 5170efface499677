import type { Driver } from './driver.js';
import { orderShipped } from './scenario.js';

/**
 * The edges of the writing routes and of promotion: bounds, refused bodies, identifier changes, emptied step lists,
 * deleted workflows, paging of the changes, a workflow in a group Production does not have yet.
 * Expects a Development group named `Marketing` besides `General`.
 */

// biome-ignore lint/suspicious/noExplicitAny: scenarios read deep into JSON bodies
type Json = any;

const ABSENT_ID = '0123456789abcdef01234567';
const summary = (c: Json) => ({ type: c.type, enabled: c.enabled, templateName: c.templateName });

/** A taken identifier's suffix is random: kept as `<suffix>`. */
function withoutSuffixes(body: Json): Json {
  const data = body.data.map((w: Json) => ({
    ...w,
    triggers: w.triggers.map((t: Json) => ({ ...t, identifier: t.identifier.replace(/^-.+$/, '-<suffix>') })),
  }));
  return { ...body, data };
}

export async function runEdgeScenario(d: Driver): Promise<void> {
  const workflows = '/v1/workflows';
  const groups = await d.call('groups', 'GET', '/v1/notification-groups');
  const marketing = groups.data.find((g: Json) => g.name === 'Marketing')._id;
  const body = { ...orderShipped(d.service.groupId), name: 'Edge Case' };

  await d.call('create: description too long', 'POST', workflows, {
    json: { ...body, description: 'x'.repeat(1001) },
  });
  await d.call('create: tags not an array', 'POST', workflows, { json: { ...body, tags: 'a' } });
  await d.call('create: active not a boolean', 'POST', workflows, { json: { ...body, active: 'yes' } });
  await d.call('create: name not a string', 'POST', workflows, { json: { ...body, name: 7 } });
  await d.call('create: bad handlebars', 'POST', workflows, {
    json: { ...body, steps: [{ template: { type: 'sms', content: 'Hi {{#if x}}' } }] },
  });
  const active = (
    await d.call('create active, partial preferences, in Marketing', 'POST', workflows, {
      json: { ...body, active: true, preferenceSettings: { email: false }, notificationGroupId: marketing },
    })
  ).data;
  const other = (
    await d.call('create another', 'POST', workflows, {
      json: { ...body, name: 'Other One', tags: undefined },
    })
  ).data;

  const identifierOf = async (name: string, extra: Record<string, unknown> = {}) => {
    const created = await d.call(`create ${name}`, 'POST', workflows, {
      json: { ...body, name, ...extra },
      record: 'status',
    });
    return created.data?.triggers?.[0]?.identifier;
  };
  d.fact('identifiers of the older server', [
    await identifierOf('orderShipped'),
    await identifierOf('snake_case name'),
    await identifierOf('日本'),
  ]);
  const second = await identifierOf('日本', { draft: true, active: true });
  d.fact('a second empty identifier gets a suffix', /^-[A-Za-z0-9_-]+$/.test(second));
  await d.call('draft follows active', 'GET', `${workflows}/${encodeURIComponent(second)}`, {
    record: (b: Json) => ({ active: b.data.active, draft: b.data.draft }),
  });
  await d.call('create: cta action empty', 'POST', workflows, {
    json: {
      ...body,
      steps: [
        {
          template: {
            type: 'in_app',
            content: 'x',
            cta: { type: 'redirect', data: { url: '/x' }, action: '' },
          },
        },
      ],
    },
    record: 'status',
  });
  const rich = (
    await d.call('create with every template field', 'POST', workflows, {
      json: {
        ...body,
        name: 'Rich One',
        steps: [
          {
            template: {
              type: 'email',
              name: 'Welcome mail',
              subject: 'Hi {{name}}',
              preheader: 'Before',
              senderName: 'Acme',
              contentType: 'editor',
              content: [{ type: 'text', content: 'Hello {{name}}', styles: { textAlign: 'left' } }],
              variables: [{ name: 'name', type: 'String', defaultValue: 'you' }],
              feedId: ABSENT_ID,
            },
          },
          {
            template: {
              type: 'in_app',
              content: 'Open {{url}}',
              cta: { type: 'redirect', data: { url: '{{url}}', target: '_blank' } },
              actor: { type: 'none', data: null },
            },
          },
        ],
      },
    })
  ).data;
  await d.call('update: kept templates with empty and omitted fields', 'PUT', `${workflows}/${rich._id}`, {
    json: {
      steps: rich.steps.map((step: Json) => ({
        _templateId: step._templateId,
        template: { type: step.template.type, content: '', subject: '', variables: [] },
      })),
    },
  });

  // Update edges.
  await d.call('update: active is not accepted here', 'PUT', `${workflows}/${active._id}`, {
    json: { active: false },
  });
  await d.call('update: empty name kept, steps emptied', 'PUT', `${workflows}/${active._id}`, {
    json: { name: '', steps: [] },
  });
  await d.call('update: identifier changed', 'PUT', `${workflows}/${active._id}`, {
    json: { identifier: 'edge-renamed' },
  });
  await d.call('get by the new identifier', 'GET', `${workflows}/edge-renamed`);
  await d.call('get by the old identifier', 'GET', `${workflows}/edge-case`);
  await d.call('update: a group that does not exist', 'PUT', `${workflows}/${other._id}`, {
    json: { notificationGroupId: ABSENT_ID },
  });
  await d.call('update: group not an id', 'PUT', `${workflows}/${other._id}`, {
    json: { notificationGroupId: 'x' },
  });
  await d.call('update: steps with every field', 'PUT', `${workflows}/${other._id}`, {
    json: {
      steps: [
        {
          name: 'Delay',
          active: false,
          shouldStopOnFail: true,
          template: { type: 'delay' },
          metadata: { type: 'scheduled', delayPath: 'sendAt' },
        },
        {
          name: 'Chat',
          replyCallback: { active: true, url: 'https://example.com/reply' },
          template: { type: 'chat', content: '{{#each lines}}{{text}}{{/each}} for {{tenant.name}}' },
        },
      ],
    },
  });
  await d.call('get a Development id with the Production key', 'GET', `${workflows}/${other._id}`, {
    key: 'prod',
  });
  await d.call('update a Development id with the Production key', 'PUT', `${workflows}/${other._id}`, {
    key: 'prod',
    json: { name: 'Elsewhere' },
  });
  await d.call('an unknown route', 'GET', '/v1/nothing-here', { record: 'status' });
  await d.call('status: of an absent id', 'PUT', `${workflows}/${ABSENT_ID}/status`, {
    json: { active: true },
  });
  await d.call('status: not a boolean', 'PUT', `${workflows}/${other._id}/status`, {
    json: { active: 'yes' },
  });
  await d.call('delete other', 'DELETE', `${workflows}/${other._id}`);
  await d.call('update a deleted workflow', 'PUT', `${workflows}/${other._id}`, { json: { name: 'Back' } });
  await d.call('status of a deleted workflow', 'PUT', `${workflows}/${other._id}/status`, {
    json: { active: true },
  });
  await d.call('list with defaults', 'GET', workflows, {
    record: (b: Json) => ({ ...b, data: b.data.length }),
  });
  await d.call('list: limit over 100', 'GET', `${workflows}?page=0&limit=101`, { record: 'status' });

  // Changes paging, bounds and promotion of a workflow whose group Production lacks.
  await d.call('changes: page 1 of 1 per page', 'GET', '/v1/changes?promoted=false&page=1&limit=1', {
    record: (b: Json) => ({ ...b, data: b.data.map(summary) }),
  });
  await d.call('changes: limit over 100', 'GET', '/v1/changes?promoted=false&page=0&limit=101', {
    record: 'status',
  });
  await d.call('changes: count with the Production key', 'GET', '/v1/changes/count', { key: 'prod' });
  await d.call('bulk apply: changeIds not a list', 'POST', '/v1/changes/bulk/apply', {
    json: { changeIds: 'x' },
    record: 'status',
  });
  await d.call('apply: an unknown change', 'POST', `/v1/changes/${ABSENT_ID}/apply`, { record: 'status' });
  const pending = await d.call('changes: all pending', 'GET', '/v1/changes?promoted=false&page=0&limit=100', {
    record: (b: Json) => ({ ...b, data: b.data.map(summary) }),
  });
  await d.call('bulk apply all', 'POST', '/v1/changes/bulk/apply', {
    json: { changeIds: pending.data.map((c: Json) => c._id) },
    record: 'status',
  });
  const production = await d.call('Production groups after promotion', 'GET', '/v1/notification-groups', {
    key: 'prod',
  });
  const promotedGroup = production.data.find((g: Json) => g.name === 'Marketing');
  d.fact('a missing Production group is promoted on the way', promotedGroup?._parentId === marketing);
  const copies = await d.call('Production workflows', 'GET', `${workflows}?page=0&limit=10`, {
    key: 'prod',
    record: withoutSuffixes,
  });
  const copy = copies.data.find((w: Json) => w._parentId === active._id);
  d.fact('the copy uses the Production group', copy?._notificationGroupId === promotedGroup?._id);
  d.fact('the copy is active as created', [copy?.active, copy?.draft]);
  await d.call('get the copy by its new identifier', 'GET', `${workflows}/edge-renamed`, { key: 'prod' });
}
