import { describe, expect, it } from 'vitest';
import { renderWorkflow, sampleData } from '../../../src/render/index.js';
import { aWorkflow } from '../../helpers/workflow.js';

describe('renderWorkflow', () => {
  it('renders each step with the payload at the top level and the subscriber beside it', () => {
    const workflow = aWorkflow({
      steps: [
        {
          name: 'inbox',
          template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}, order {{orderId}}' },
        },
        { name: 'text', template: { type: 'sms', content: 'Total {{total}}' } },
      ],
    });
    const result = renderWorkflow(workflow, {
      payload: { orderId: 'A1', total: 3 },
      subscriber: { firstName: 'Ada' },
    });
    expect(result.steps.map((s) => s.content)).toEqual(['Hi Ada, order A1', 'Total 3']);
    expect(result.findings).toEqual([]);
  });

  it('renders only the step named or indexed', () => {
    const workflow = aWorkflow({
      steps: [
        { name: 'a', template: { type: 'sms', content: 'A' } },
        { name: 'b', template: { type: 'sms', content: 'B' } },
      ],
    });
    const data = { payload: {}, subscriber: {} };
    expect(renderWorkflow(workflow, data, { step: 'b' }).steps.map((s) => s.content)).toEqual(['B']);
    expect(renderWorkflow(workflow, data, { step: 0 }).steps.map((s) => s.content)).toEqual(['A']);
  });
});

describe('sampleData', () => {
  it('is stable and realistic by name', () => {
    const workflow = aWorkflow({
      steps: [
        {
          name: 'inbox',
          template: {
            type: 'in_app',
            content: '{{firstName}} {{amount}} {{orderUrl}} {{createdAt}} {{#each items}}{{title}}{{/each}}',
          },
        },
      ],
    });
    const a = sampleData(workflow);
    expect(a).toEqual(sampleData(workflow));
    expect(a.payload.firstName).toBe('Ada');
    expect(typeof a.payload.amount).toBe('number');
    expect(a.payload.orderUrl).toMatch(/^https:\/\//);
    expect(a.payload.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Array.isArray(a.payload.items)).toBe(true);
    expect((a.payload.items as Array<{ title: string }>)[0]?.title).toBeTypeOf('string');
  });
});
