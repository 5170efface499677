import { describe, expect, it } from 'vitest';
import { call, post, start, workflowBody } from './helpers.js';

const clock = () => Date.UTC(2024, 9, 1, 12, 0, 0, 0);
const TIMESTAMP = '2024-10-01T12:00:00.000Z';
const TYPES_V1 = 'in_app, email, sms, chat, push, digest, trigger, delay, custom';

const EMPTY_BODY_MESSAGES = [
  'name should not be null or undefined',
  'name must be a string',
  'Notification group must be provided ',
  'notificationGroupId must be a string',
  'steps should not be null or undefined',
  'steps must be an array',
];

describe('request DTO', () => {
  it('answers an empty body with the six messages, in the error body shape', async () => {
    const emulator = await start({ clock });
    const reply = await post(emulator, {});
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      statusCode: 400,
      timestamp: TIMESTAMP,
      path: '/v1/workflows',
      message: EMPTY_BODY_MESSAGES,
      error: 'Bad Request',
    });
    expect(emulator.workflows()).toEqual([]);
  });

  it('treats a missing body, a non-JSON content type and a JSON array as an empty body', async () => {
    const emulator = await start();
    const replies = [
      await call(emulator, 'POST', '/v1/workflows'),
      await call(emulator, 'POST', '/v1/workflows', {
        raw: JSON.stringify(workflowBody(emulator)),
        contentType: 'text/plain',
      }),
      await call(emulator, 'POST', '/v1/workflows', {
        raw: JSON.stringify(workflowBody(emulator)),
        contentType: null,
      }),
      await post(emulator, [workflowBody(emulator)]),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body.message).toEqual(EMPTY_BODY_MESSAGES);
    }
    // A JSON content type with parameters is still JSON.
    const withCharset = await post(emulator, workflowBody(emulator), {
      contentType: 'application/json; charset=utf-8',
    });
    expect(withCharset.status).toBe(201);
  });

  it.each([
    [{ name: 42 }, ['name must be a string']],
    [
      { notificationGroupId: null },
      ['Notification group must be provided ', 'notificationGroupId must be a string'],
    ],
    [{ tags: 'orders' }, ['tags must be an array']],
    [{ tags: ['ok', 3] }, ['each value in tags must be a string']],
    [{ active: 'yes' }, ['active must be a boolean value']],
    [{ draft: 1, critical: 'no' }, ['draft must be a boolean value', 'critical must be a boolean value']],
    [{ description: 7 }, ['description must be a string']],
    [{ description: 'x'.repeat(1001) }, ['description must be shorter than or equal to 1000 characters']],
    [{ steps: {} }, ['steps must be an array']],
    [{ steps: ['x'] }, ['each value in nested property steps must be either object or array']],
    [{ preferenceSettings: true }, ['nested property preferenceSettings must be either object or array']],
    [{ preferenceSettings: { sms: 'off' } }, ['preferenceSettings.sms must be a boolean value']],
    [{ data: [1] }, ['data must be an object']],
    [{ name: 1, active: 2 }, ['name must be a string', 'active must be a boolean value']],
  ])('%j → 400 %j', async (overrides, messages) => {
    const emulator = await start();
    const reply = await post(emulator, workflowBody(emulator, overrides));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toEqual(messages);
    expect(reply.body.error).toBe('Bad Request');
  });

  it('checks notificationGroupId is a mongodb id after the DTO passes, but not that the group exists', async () => {
    const emulator = await start();
    const bad = await post(emulator, workflowBody(emulator, { notificationGroupId: 'general' }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['notificationGroupId must be a mongodb id']);
    const unknownGroup = await post(
      emulator,
      workflowBody(emulator, { notificationGroupId: 'ABCDEF0123456789abcdef01' }),
    );
    expect(unknownGroup.status).toBe(201);
    expect(unknownGroup.body.data._notificationGroupId).toBe('ABCDEF0123456789abcdef01');
    // Only the environment's own group can be populated.
    expect(unknownGroup.body.data).not.toHaveProperty('notificationGroup');
  });

  it('accepts what the older server accepts: long names, 21 steps, duplicate and empty tags, null optionals', async () => {
    const emulator = await start();
    const steps = Array.from({ length: 21 }, () => ({ template: { type: 'chat', content: 'x' } }));
    const reply = await post(
      emulator,
      workflowBody(emulator, {
        name: 'n'.repeat(300),
        steps,
        tags: ['a', 'a', ''],
        active: null,
        description: null,
      }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data.steps).toHaveLength(21);
    expect(reply.body.data.active).toBe(false);
    expect(reply.body.data).not.toHaveProperty('description');
  });

  it.each([
    [{ name: '' }, ['name must be longer than or equal to 1 characters']],
    [{ name: 'n'.repeat(129) }, ['name must be shorter than or equal to 128 characters']],
    [{ description: 'd'.repeat(257) }, ['description must be shorter than or equal to 256 characters']],
    [{ tags: ['a', 'a'] }, ["All tags's elements must be unique"]],
    [
      { tags: ['t'.repeat(65), ''] },
      [
        'each value in tags must be longer than or equal to 1 characters',
        'each value in tags must be shorter than or equal to 64 characters',
      ],
    ],
    [
      { steps: Array.from({ length: 21 }, () => ({ template: { type: 'chat', content: 'x' } })) },
      ['steps must contain no more than 20 elements'],
    ],
  ])('the newer server (v2) also bounds %j', async (overrides, messages) => {
    const emulator = await start({ slugGeneration: 'v2' });
    const reply = await post(emulator, workflowBody(emulator, overrides));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toEqual(messages);
  });
});

describe('steps (checked by the use case, one step at a time)', () => {
  it.each([
    [[{ name: 'no template' }], 'Unexpected error: message template is missing'],
    [[{ template: null }], 'Unexpected error: message template is missing'],
    [
      [{ template: { type: 'in_app', content: 'x', cta: { type: 'redirect', action: '' } } }],
      'Please provide a valid CTA action',
    ],
    [
      [
        {
          template: { type: 'in_app', content: 'x' },
          variants: [{ name: 'v', template: { type: 'in_app', content: 'y' } }],
        },
      ],
      'Variant conditions are required, variant name v id undefined',
    ],
    [
      [
        {
          template: { type: 'in_app', content: 'x' },
          variants: [{ filters: [{ children: [{ on: 'payload' }] }] }],
        },
      ],
      'Unexpected error: variants message template is missing',
    ],
    [[{ template: { type: 'in_app', content: 'Hi {{#if x}}unclosed' } }], 'Failed to extract variables'],
  ])('%j → 400 %j', async (steps, message) => {
    const emulator = await start({ clock });
    const reply = await post(emulator, workflowBody(emulator, { steps }));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      statusCode: 400,
      timestamp: TIMESTAMP,
      path: '/v1/workflows',
      message,
      error: 'Bad Request',
    });
    expect(emulator.workflows()).toEqual([]);
  });

  it('answers a missing or unknown template.type with the enum message', async () => {
    const emulator = await start();
    const missing = await post(emulator, workflowBody(emulator, { steps: [{ template: { content: 'x' } }] }));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual([
      'type should not be null or undefined',
      `type must be one of the following values: ${TYPES_V1}`,
    ]);
    const unknown = await post(emulator, workflowBody(emulator, { steps: [{ template: { type: 'tool' } }] }));
    expect(unknown.body.message).toEqual([`type must be one of the following values: ${TYPES_V1}`]);
    const v2 = await start({ slugGeneration: 'v2' });
    const newer = await post(v2, workflowBody(v2, { steps: [{ template: { type: 'throttle' } }] }));
    expect(newer.status).toBe(201);
  });

  it('stores anything else inside a step as sent: validation is the client’s job', async () => {
    const emulator = await start();
    const steps = [
      {
        template: { type: 'email', content: 42, subject: ['not', 'a', 'string'] },
        metadata: { amount: 'soon' },
      },
    ];
    const reply = await post(emulator, workflowBody(emulator, { steps }));
    expect(reply.status).toBe(201);
    expect(reply.body.data.steps[0].template).toMatchObject({ content: 42, subject: ['not', 'a', 'string'] });
    expect(reply.body.data.steps[0].metadata.amount).toBe('soon');
  });
});

describe('body parser', () => {
  it('answers invalid JSON with 400 and the parser message, before auth', async () => {
    const emulator = await start({ clock });
    const reply = await call(emulator, 'POST', '/v1/workflows', { raw: '{"name": ', key: null });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      statusCode: 400,
      timestamp: TIMESTAMP,
      path: '/v1/workflows',
      error: 'Bad Request',
    });
    expect(reply.body.message).toMatch(/JSON/);
  });

  it.each([
    ['2,000', 2000],
    ['100,000', 100_000],
  ])('answers a body nested %s levels deep with 400 and stores nothing', async (_depth, depth) => {
    const emulator = await start();
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    const raw = JSON.stringify(workflowBody(emulator, { data: { x: 'DEEP' } })).replace('"DEEP"', deep);
    const reply = await call(emulator, 'POST', '/v1/workflows', { raw });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('request body nested deeper than 128 levels');
    expect(emulator.workflows()).toEqual([]);
  });

  it('rejects a JSON body that is not an object or array (strict mode), naming the offending text', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', '/v1/workflows', { raw: ' "text"' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('"text"');
    expect(reply.body.message).not.toContain('#');
  });

  it('answers a body over 20 MB with 413 and stores nothing', async () => {
    const emulator = await start({ clock });
    const big = workflowBody(emulator, { description: 'x'.repeat(20 * 1024 * 1024) });
    const reply = await post(emulator, big);
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      statusCode: 413,
      timestamp: TIMESTAMP,
      path: '/v1/workflows',
      message: 'request entity too large',
      error: 'Payload Too Large',
    });
    expect(emulator.workflows()).toEqual([]);
  });
});
