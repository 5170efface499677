import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { buildRenderedChanges, RENDERED_TEXT_MAX } from '../../../src/plan/rendered-changes.js';
import type { FieldChange } from '../../../src/plan/types.js';
import { sampleData } from '../../../src/render/index.js';
import { aWorkflow } from '../../helpers/workflow.js';

const changed = (pointer: string, actual: unknown, desired: unknown): FieldChange => ({
  pointer,
  path: pointer.slice(1).replace(/\//g, '.'),
  kind: 'changed',
  actual,
  desired,
});

function shipped(steps: WorkflowDefinition['steps']): WorkflowDefinition {
  return aWorkflow({ steps });
}

describe('buildRenderedChanges', () => {
  it("renders a changed step's service version and the file's with one sample built from the file", () => {
    const definition = shipped([
      { name: 'Text', template: { type: 'sms', content: 'Order {{orderId}} is on its way.' } },
      { name: 'Inbox', template: { type: 'in_app', content: 'Order {{orderId}} shipped' } },
    ]);
    const result = buildRenderedChanges(definition, [
      changed(
        '/steps/0/template/content',
        'Order {{orderId}} has shipped.',
        'Order {{orderId}} is on its way.',
      ),
    ]);
    const { payload } = sampleData(definition);
    const id = String(payload.orderId);
    expect(result).toEqual({
      payload,
      steps: [
        {
          index: 0,
          name: 'Text',
          type: 'sms',
          before: expect.objectContaining({ content: `Order ${id} has shipped.` }),
          after: expect.objectContaining({ content: `Order ${id} is on its way.` }),
        },
      ],
    });
  });

  it('an email: subject and body on both sides, the body as HTML', () => {
    const definition = shipped([
      {
        name: 'Mail',
        template: {
          type: 'email',
          contentType: 'customHtml',
          subject: 'Order {{orderId}} shipped',
          // A customHtml email's subject is not scanned for variables: the body names orderId for the sample.
          content: '<p>New body for {{orderId}}</p>',
        },
      },
    ]);
    const result = buildRenderedChanges(definition, [
      changed('/steps/0/template/subject', 'Your order', 'Order {{orderId}} shipped'),
      changed('/steps/0/template/content', '<p>Old body</p>', '<p>New body for {{orderId}}</p>'),
    ]);
    const [step] = result!.steps;
    expect(step!.before).toMatchObject({ subject: 'Your order', contentType: 'html' });
    expect(step!.before!.content).toContain('<p>Old body</p>');
    expect(step!.after!.subject).toMatch(/^Order .+ shipped$/);
    expect(step!.after!.content).toMatch(/<p>New body for .+<\/p>/);
  });

  it('nothing when the change renders the same, touches no message field, or is outside the steps', () => {
    const definition = shipped([
      {
        name: 'Wait',
        template: { type: 'delay' },
        metadata: { type: 'regular', amount: 2, unit: 'hours' },
      },
      { name: 'Inbox', template: { type: 'in_app', content: 'Order {{orderId}} shipped' } },
    ]);
    expect(
      buildRenderedChanges(definition, [
        changed('/steps/1/template/content', 'Order {{ orderId }} shipped', 'Order {{orderId}} shipped'),
      ]),
    ).toBeUndefined();
    expect(buildRenderedChanges(definition, [changed('/steps/1/name', 'inbox', 'Inbox')])).toBeUndefined();
    expect(buildRenderedChanges(definition, [changed('/steps/0/metadata/amount', 1, 2)])).toBeUndefined();
    expect(buildRenderedChanges(definition, [changed('/description', 'a', 'b')])).toBeUndefined();
  });

  it('a step only the file has is rendered after only; one only the service has, before only', () => {
    const definition = shipped([
      { name: 'Inbox', template: { type: 'in_app', content: 'Order {{orderId}} shipped' } },
      { name: 'Chat', template: { type: 'chat', content: 'Shipped {{orderId}}' } },
    ]);
    const added = buildRenderedChanges(definition, [
      {
        pointer: '/steps/1',
        path: 'steps[1]',
        kind: 'only-in-file',
        desired: definition.steps[1],
      },
    ]);
    expect(added!.steps).toEqual([
      {
        index: 1,
        name: 'Chat',
        type: 'chat',
        after: expect.objectContaining({ content: expect.stringMatching(/^Shipped /) }),
      },
    ]);
    const removed = buildRenderedChanges(shipped([definition.steps[0]!]), [
      {
        pointer: '/steps/1',
        path: 'steps[1]',
        kind: 'only-on-service',
        actual: { name: 'Old push', template: { type: 'push', title: 'Hey', content: 'Gone {{orderId}}' } },
      },
    ]);
    expect(removed!.steps).toEqual([
      {
        index: 1,
        name: 'Old push',
        type: 'push',
        before: expect.objectContaining({ title: 'Hey', content: expect.stringMatching(/^Gone /) }),
      },
    ]);
  });

  it('caps each rendered string and says so', () => {
    const long = 'x'.repeat(RENDERED_TEXT_MAX + 10);
    const definition = shipped([{ name: 'Inbox', template: { type: 'in_app', content: long } }]);
    const result = buildRenderedChanges(definition, [changed('/steps/0/template/content', 'short', long)]);
    expect(result!.steps[0]!.after).toMatchObject({ truncated: true });
    expect(result!.steps[0]!.after!.content).toHaveLength(RENDERED_TEXT_MAX);
    expect(result!.steps[0]!.before!.truncated).toBeUndefined();
  });
});
