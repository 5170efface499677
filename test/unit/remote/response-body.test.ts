import { describe, expect, it } from 'vitest';
import { checkWorkflowEnvelope } from '../../../src/remote/response-body.js';
import { workflowResponse } from '../../helpers/remote.js';

/** The generated standalone validator for schemas/workflow-response.schema.json, and how its errors read. */

function withStep(step: Record<string, unknown>) {
  return { data: workflowResponse({ steps: [step] }) };
}

const TEMPLATE = { _id: '65a1b2c3d4e5f60718293a4d', type: 'email', subject: 'Hi', content: '<p>x</p>' };

describe('checkWorkflowEnvelope', () => {
  it('returns the envelope of a valid answer, steps and templates included', () => {
    const body = withStep({
      _id: '65a1b2c3d4e5f60718293a4c',
      name: 'email',
      template: TEMPLATE,
      filters: [],
    });
    const checked = checkWorkflowEnvelope(body);
    expect(checked).toEqual({ envelope: body });
  });

  it.each([
    [
      'a missing required field',
      { data: workflowResponse({ triggers: undefined }) },
      ["/data must have required property 'triggers'"],
    ],
    [
      'a bad id, by its JSON pointer',
      { data: workflowResponse({ _id: 'nope' }) },
      ['/data/_id must match pattern "^[0-9a-f]{24}$"'],
    ],
    [
      'a bad date',
      { data: workflowResponse({ createdAt: 'yesterday' }) },
      ['/data/createdAt must match format "date-time"'],
    ],
    ['not an object at all', [], ['(the body) must be object']],
    [
      'a template with a bad id: the deep pointer, not the anyOf noise around it',
      withStep({ template: { ...TEMPLATE, _id: 'x' } }),
      ['/data/steps/0/template/_id must match pattern "^[0-9a-f]{24}$"'],
    ],
    [
      'a template of the wrong type: one message naming both allowed types',
      withStep({ template: 'x' }),
      ['/data/steps/0/template must be object or null'],
    ],
    [
      'many problems: the first three, in order, and how many more',
      { data: workflowResponse({ _id: 1, name: 2, steps: 3, triggers: 4, __v: -1 }) },
      ['/data/_id must be string', '/data/name must be string', '/data/steps must be array', 'and 2 more'],
    ],
  ])('%s', (_label, body, problems) => {
    expect(checkWorkflowEnvelope(body)).toEqual({ problems });
  });
});
