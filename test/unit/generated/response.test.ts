import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { validateWorkflowResponseEnvelope } from '../../../src/generated/response-validators.js';

/** A GET /v1/workflows/{id} answer modelled on the seed specification (every field it lists). */
function fixture(): { data: Record<string, unknown> } {
  return JSON.parse(readFileSync(new URL('./fixtures/workflow-response.json', import.meta.url), 'utf8'));
}

function errorsOf(value: unknown): string[] {
  if (validateWorkflowResponseEnvelope(value)) return [];
  return (validateWorkflowResponseEnvelope.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
}

describe('what real servers answer is accepted', () => {
  test('the retrieval shape', () => {
    expect(errorsOf(fixture())).toEqual([]);
  });

  test('the create shape: no id/isBlueprint/timestamps, a notificationGroup object, no description', () => {
    const body = fixture();
    for (const key of ['id', 'isBlueprint', 'createdAt', 'updatedAt', '__v', 'description'])
      delete body.data[key];
    body.data.notificationGroup = {
      _id: '66f2a9c1e4b0a1b2c3d4e5b0',
      name: 'General',
      _environmentId: '66f2a9c1e4b0a1b2c3d4e5a0',
      _organizationId: '66f2a9c1e4b0a1b2c3d4e5a1',
      _parentId: null,
    };
    expect(errorsOf(body)).toEqual([]);
  });

  test('fields and step types of newer servers, a deleted template, nullable fields', () => {
    const body = fixture();
    Object.assign(body.data, {
      userPreferences: { all: { enabled: true } },
      payloadSchema: { type: 'object' },
      validatePayload: true,
      status: 'ACTIVE',
      issues: {},
      deletedAt: null,
      deletedBy: null,
      _parentId: null,
    });
    const steps = body.data.steps as Array<Record<string, unknown>>;
    steps.push({ ...steps[0], template: null, stepId: 'throttle-1' });
    steps.push({ ...steps[0], template: { type: 'throttle', controls: {} } });
    expect(errorsOf(body)).toEqual([]);
  });
});

describe('what a proxy or a broken server sends is rejected', () => {
  test.each([
    ['an HTML error page', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['an empty object', {}],
    ['null', null],
    ['an array', []],
    ['data: null', { data: null }],
    ['data: an array', { data: [] }],
  ])('%s', (_label, value) => {
    expect(validateWorkflowResponseEnvelope(value)).toBe(false);
  });

  test('the workflow without its envelope', () => {
    // The workflow's own `data` field ({}) is then taken for the envelope's: it lacks every workflow field.
    expect(errorsOf(fixture().data)).toEqual([
      '/data required',
      '/data required',
      '/data required',
      '/data required',
    ]);
    const { data: _ignored, ...withoutData } = fixture().data;
    expect(errorsOf(withoutData)).toEqual([' required']);
  });

  test('ids that are not 24 lower-case hex, a bad timestamp, a trigger without identifier', () => {
    const body = fixture();
    body.data._id = '66F2A9C1E4B0A1B2C3D4E5F6';
    body.data._environmentId = '66f2a9c1e4b0a1b2c3d4e5a';
    body.data.createdAt = 'yesterday';
    (body.data.triggers as Array<Record<string, unknown>>)[0]!.identifier = undefined;
    expect(errorsOf(body)).toEqual([
      '/data/_id pattern',
      '/data/triggers/0 required',
      '/data/_environmentId pattern',
      '/data/createdAt format',
    ]);
  });

  test('required workflow fields and array shapes', () => {
    const body = fixture();
    delete body.data.name;
    body.data.steps = {};
    expect(errorsOf(body)).toEqual(['/data required', '/data/steps type']);
  });
});
