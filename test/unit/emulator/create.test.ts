import { describe, expect, it } from 'vitest';
import { call, get, post, start, workflowBody } from './helpers.js';
import { responseSchemaErrors } from './schema.js';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const clock = () => Date.UTC(2024, 9, 1, 12, 0, 0, 123);

describe('response schema check', () => {
  it('catches a broken response (so the checks below can fail)', () => {
    const broken = {
      data: { _id: 'x', name: 'n', steps: [], triggers: [{ identifier: 'n' }], createdAt: 'yesterday' },
    };
    const errors = responseSchemaErrors(broken);
    expect(errors.some((e) => e.startsWith('/data/_id'))).toBe(true);
    expect(errors.some((e) => e.startsWith('/data/createdAt'))).toBe(true);
  });
});

describe('POST /v1/workflows', () => {
  it('answers 201 with everything the server fills in, and the response conforms to the schema', async () => {
    const emulator = await start({ seed: 42, clock });
    const reply = await post(emulator, workflowBody(emulator));
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(responseSchemaErrors(reply.body)).toEqual([]);
    const w = reply.body.data;
    expect(w._id).toMatch(OBJECT_ID);
    expect(w.id).toBe(w._id);
    for (const field of ['_environmentId', '_organizationId', '_creatorId', '_notificationGroupId']) {
      expect(w[field]).toMatch(OBJECT_ID);
    }
    expect(w._environmentId).toBe(emulator.environmentId);
    expect(w._notificationGroupId).toBe(emulator.notificationGroupId);
    expect(w).toMatchObject({
      name: 'Order Shipped',
      active: false,
      draft: true,
      critical: false,
      isBlueprint: false,
      deleted: false,
      tags: [],
      type: 'REGULAR',
      origin: 'novu-cloud-v1',
      preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
      createdAt: '2024-10-01T12:00:00.123Z',
      updatedAt: '2024-10-01T12:00:00.123Z',
      __v: 0,
    });
    expect(w).not.toHaveProperty('description');
    expect(w).not.toHaveProperty('deletedAt');
    expect(w).not.toHaveProperty('deletedBy');
    expect(w.notificationGroup).toEqual({
      _id: emulator.notificationGroupId,
      name: 'General',
      _environmentId: w._environmentId,
      _organizationId: w._organizationId,
    });
  });

  it('populates the owning group on the create response for any group the environment has, none for an unknown one', async () => {
    const emulator = await start({ seed: 2, clock, notificationGroups: [{ name: 'Marketing' }] });
    const marketing = emulator.notificationGroups.find((g) => g.name === 'Marketing')!;
    const inMarketing = await post(emulator, workflowBody(emulator, { notificationGroupId: marketing.id }));
    expect(inMarketing.body.data.notificationGroup).toEqual({
      _id: marketing.id,
      name: 'Marketing',
      _environmentId: emulator.environmentId,
      _organizationId: inMarketing.body.data._organizationId,
    });
    const unknown = await post(
      emulator,
      workflowBody(emulator, { name: 'Elsewhere', notificationGroupId: '0123456789abcdef01234567' }),
    );
    expect(unknown.status).toBe(201);
    expect(unknown.body.data).not.toHaveProperty('notificationGroup');
  });

  it('links steps: _id = _templateId = template._id, _parentId chains, template defaults are filled', async () => {
    const emulator = await start({ seed: 1, clock });
    const steps = [
      { name: 'inbox', template: { type: 'in_app', content: 'Hi {{firstName}}' } },
      {
        template: { type: 'email', subject: 'Hello', content: 'Hi', contentType: 'customHtml' },
        active: false,
      },
      {
        template: {
          type: 'sms',
          content: 'Hi',
          variables: [{ name: 'firstName', type: 'String' }],
          layoutId: null,
        },
        shouldStopOnFail: true,
        filters: [
          {
            isNegated: false,
            type: 'GROUP',
            value: 'AND',
            children: [{ on: 'payload', field: 'x', value: '1', operator: 'EQUAL' }],
          },
        ],
      },
    ];
    const reply = await post(emulator, workflowBody(emulator, { steps }));
    expect(reply.status).toBe(201);
    expect(responseSchemaErrors(reply.body)).toEqual([]);
    const [first, second, third] = reply.body.data.steps;
    const ids = new Set<string>();
    for (const step of [first, second, third]) {
      expect(step._id).toMatch(OBJECT_ID);
      expect(step._templateId).toBe(step._id);
      expect(step.template._id).toBe(step._id);
      expect(step.id).toBe(step._id);
      expect(step.template).toMatchObject({
        active: true,
        deleted: false,
        __v: 0,
        _environmentId: emulator.environmentId,
        createdAt: expect.stringMatching(ISO_MS_Z),
      });
      expect(step.metadata.timed).toEqual({ weekDays: [], monthDays: [] });
      ids.add(step._id);
    }
    expect(ids.size).toBe(3);
    expect(first._parentId).toBeNull();
    expect(second._parentId).toBe(first._id);
    expect(third._parentId).toBe(second._id);
    expect(first).toMatchObject({ name: 'inbox', active: true, shouldStopOnFail: false, filters: [] });
    expect(second.active).toBe(false);
    expect(third.shouldStopOnFail).toBe(true);
    // Email templates get the environment's default layout; others none. No feed → null.
    expect(second.template._layoutId).toMatch(OBJECT_ID);
    expect(first.template._layoutId).toBeNull();
    expect(first.template._feedId).toBeNull();
    expect(third.template.variables).toEqual([
      {
        name: 'firstName',
        type: 'String',
        required: false,
        _id: expect.stringMatching(OBJECT_ID),
        id: expect.any(String),
      },
    ]);
    const [filter] = third.filters;
    expect(filter._id).toMatch(OBJECT_ID);
    expect(filter.id).toBe(filter._id);
    expect(filter.children).toEqual([{ on: 'payload', field: 'x', value: '1', operator: 'EQUAL' }]);
  });

  it('derives the trigger with the service extractor and stores its variables with ids', async () => {
    const emulator = await start({ seed: 3 });
    const steps = [
      {
        template: {
          type: 'in_app',
          content: '{{#each items}}{{title}}{{/each}} {{#if vip}}*{{/if}} {{subscriber.firstName}}',
        },
      },
      { template: { type: 'sms', content: '{{tenant.name}} {{orderId}}' } },
      { template: { type: 'email', subject: '{{subject}}', content: 'body', contentType: 'customHtml' } },
    ];
    const reply = await post(emulator, workflowBody(emulator, { name: 'orderShipped', steps }));
    const [trigger] = reply.body.data.triggers;
    expect(reply.body.data.triggers).toHaveLength(1);
    expect(trigger.type).toBe('event');
    expect(trigger.identifier).toBe('ordershipped');
    expect(trigger._id).toMatch(OBJECT_ID);
    expect(trigger.variables.map((v: { name: string; type: string }) => [v.name, v.type])).toEqual([
      ['items', 'Array'],
      ['items.title', 'String'],
      ['vip', 'Boolean'],
      ['orderId', 'String'],
    ]);
    for (const v of trigger.variables) {
      expect(v._id).toMatch(OBJECT_ID);
      expect(v.id).toBe(v._id);
    }
    expect(trigger.reservedVariables).toMatchObject([
      { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] },
    ]);
    expect(trigger.subscriberVariables.map((s: { name: string }) => s.name)).toEqual(['phone', 'email']);
  });

  it('keeps what was sent, drops what the service does not store, and ignores a sent draft', async () => {
    const emulator = await start({ seed: 5 });
    const reply = await post(
      emulator,
      workflowBody(emulator, {
        description: 'When an order leaves the warehouse',
        tags: ['orders'],
        active: true,
        draft: true,
        critical: true,
        preferenceSettings: { email: false },
        data: { team: 'fulfilment' },
        unknownField: 1,
        steps: [
          {
            uuid: 'u-1',
            _id: 'ignored',
            bogus: true,
            metadata: { type: 'regular', amount: 5, unit: 'minutes', timed: { weekDays: ['monday'] } },
            template: {
              type: 'digest',
              content: '',
              bogus: 1,
              cta: { type: 'redirect', data: { url: '/x' } },
            },
          },
        ],
      }),
    );
    expect(reply.status).toBe(201);
    const w = reply.body.data;
    expect(w).toMatchObject({
      description: 'When an order leaves the warehouse',
      tags: ['orders'],
      active: true,
      draft: false,
      critical: true,
      preferenceSettings: { email: false, sms: true, in_app: true, chat: true, push: true },
      data: { team: 'fulfilment' },
    });
    expect(w).not.toHaveProperty('unknownField');
    const [step] = w.steps;
    expect(step.uuid).toBe('u-1');
    expect(step._id).toMatch(OBJECT_ID);
    expect(step).not.toHaveProperty('bogus');
    expect(step.template).not.toHaveProperty('bogus');
    expect(step.template.cta).toEqual({ type: 'redirect', data: { url: '/x' } });
    expect(step.metadata).toEqual({
      type: 'regular',
      amount: 5,
      unit: 'minutes',
      timed: { weekDays: ['monday'], monthDays: [] },
    });
  });

  it('is also served under the deprecated /v1/notification-templates, case-insensitively, with a trailing slash', async () => {
    const emulator = await start();
    const created = await call(emulator, 'POST', '/v1/notification-templates/', {
      json: workflowBody(emulator),
    });
    expect(created.status).toBe(201);
    const fetched = await call(emulator, 'GET', `/V1/Workflows/${created.body.data._id}/?x=1`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data._id).toBe(created.body.data._id);
  });
});

describe('GET /v1/workflows/{workflowId}', () => {
  it('finds a workflow by _id and by trigger identifier, without the populated group', async () => {
    const emulator = await start({ seed: 9 });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    const byId = await get(emulator, created._id);
    expect(byId.status).toBe(200);
    expect(responseSchemaErrors(byId.body)).toEqual([]);
    const { notificationGroup, ...stored } = created;
    expect(notificationGroup).toBeDefined();
    expect(byId.body.data).toEqual(stored);
    const byIdentifier = await call(emulator, 'GET', '/v1/notification-templates/order-shipped');
    expect(byIdentifier.status).toBe(200);
    expect(byIdentifier.body.data).toEqual(stored);
    expect(emulator.workflows()).toEqual([stored]);
  });

  it('answers 404 with the error body for an unknown id or identifier', async () => {
    const emulator = await start({ clock });
    for (const id of ['0123456789abcdef01234567', 'no-such-workflow', '0123456789ABCDEF01234567']) {
      const reply = await get(emulator, id);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({
        statusCode: 404,
        timestamp: '2024-10-01T12:00:00.123Z',
        path: `/v1/workflows/${id}`,
        message: `Template with id ${id} not found`,
        error: 'Not Found',
      });
    }
  });

  it('looks an upper-case hex id up as an identifier, and decodes the path parameter', async () => {
    const emulator = await start();
    await post(emulator, workflowBody(emulator, { name: '0123456789ABCDEF01234567' }));
    expect((await get(emulator, '0123456789ABCDEF01234567')).status).toBe(404);
    expect((await get(emulator, '0123456789abcdef01234567')).status).toBe(404);
    await post(emulator, workflowBody(emulator, { name: 'a b' }));
    // The identifier is `a-b`; `a b` is looked up literally and not found.
    expect((await call(emulator, 'GET', '/v1/workflows/a%2Db')).status).toBe(200);
    expect((await call(emulator, 'GET', '/v1/workflows/a%20b')).status).toBe(404);
  });
});

describe('routing', () => {
  it('answers 404 `Cannot <METHOD> <url>` for unknown routes and methods, before auth', async () => {
    const emulator = await start({ clock });
    const cases: Array<[string, string]> = [
      // The edit, the delete and the status are on one workflow (workflow-writes.test.ts); not on the collection.
      ['PUT', '/v1/workflows'],
      ['DELETE', '/v1/workflows'],
      ['PUT', '/v1/environments/me'],
      ['POST', '/v1/workflows/abc'],
      ['GET', '/v1/workflows/abc/status'],
      ['GET', '/v1/changes/abc/apply'],
      ['POST', '/v1/changes'],
      ['GET', '/v2/workflows/abc?x=1'],
      ['GET', '/'],
    ];
    for (const [method, path] of cases) {
      const reply = await call(emulator, method, path, { key: null });
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body).toEqual({
        statusCode: 404,
        timestamp: '2024-10-01T12:00:00.123Z',
        path,
        message: `Cannot ${method} ${path}`,
        error: 'Not Found',
      });
    }
  });

  it('answers 400 for a path parameter that cannot be decoded', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', '/v1/workflows/%E0%A4%A');
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Failed to decode param '%E0%A4%A'");
  });
});
