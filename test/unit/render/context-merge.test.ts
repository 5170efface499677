import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition, WorkflowStep } from '../../../src/generated/workflow.js';
import { renderWorkflow, sampleData, withPayload } from '../../../src/render/index.js';
import { aWorkflow } from '../../helpers/workflow.js';

// Expectations read from novuhq/novu@74a2e9a6: apps/worker/src/app/workflow/usecases/send-message/send-message.usecase.ts
// (`buildCompileContext`: `actor` and `tenant` only when the trigger names them), send-message.base.ts
// (`getCompilePayload`: `{...payload, ...rest}`), libs/application-generic/src/usecases/compile-in-app-template/
// compile-in-app-template.usecase.ts and compile-email-template/compile-email-template.usecase.ts (`branding`,
// `preheader`, `blocks`, and `subject`/`body` for the body, set after the payload). The byte-for-byte cases per channel
// are in test/fixtures/render-corpus/steps/steps.json ("context merge, …").

const withSteps = (...steps: WorkflowStep[]): WorkflowDefinition =>
  aWorkflow({ steps: steps as WorkflowDefinition['steps'] });

const INBOX = withSteps({
  name: 'inbox',
  template: { type: 'in_app', content: '{{actor}}|{{actor.firstName}}' },
});

describe('the render context of each channel', () => {
  it('renders a payload `actor` when the trigger names no actor, the trigger actor over it when it does', () => {
    const subscriber = { firstName: 'Ada' };
    const payload = { actor: 'Bob' };
    expect(renderWorkflow(INBOX, { payload, subscriber }).steps[0]?.content).toBe('Bob|');
    const named = renderWorkflow(INBOX, { payload, subscriber, actor: { firstName: 'Grace' } });
    expect(named.steps[0]?.content).toBe('[object Object]|Grace');
  });

  it('previews a given payload with its own `actor` or `tenant` as a trigger that names none', () => {
    const sample = sampleData(INBOX);
    // The templates read `actor.firstName`: the sample's trigger names an actor.
    expect(sample.actor).toMatchObject({ firstName: 'Grace' });
    expect(renderWorkflow(INBOX, sample).steps[0]?.content).toBe('[object Object]|Grace');
    const given = withPayload(sample, { actor: 'Bob', tenant: 'Acme' });
    expect(given.actor).toBeUndefined();
    expect(given.tenant).toBeUndefined();
    expect(renderWorkflow(INBOX, given).steps[0]?.content).toBe('Bob|');
    // A payload without those keys keeps the sample's actor.
    expect(withPayload(sample, { orderId: 1 }).actor).toEqual(sample.actor);
  });

  it('warns, at the read, where a payload field is hidden by the service’s own value of that name', () => {
    const workflow = withSteps(
      { name: 'text', template: { type: 'sms', content: '{{subscriber}} {{branding}} {{actor}}' } },
      { name: 'inbox', template: { type: 'in_app', content: '{{branding}} {{step.digest}}' } },
      {
        name: 'mail',
        template: {
          type: 'email',
          contentType: 'customHtml',
          subject: '{{subject}}',
          content: '{{subject}}|{{body}}|{{blocks}}',
        },
      },
    );
    const payload = {
      subscriber: 'p',
      branding: 'p',
      actor: 'p',
      step: 'p',
      subject: 'p',
      body: 'p',
      blocks: 'p',
    };
    const result = renderWorkflow(workflow, { payload, subscriber: { firstName: 'Ada' } });
    // SMS has no branding, and this trigger names no actor: those two render the payload's values.
    expect(result.steps[0]?.content).toBe('[object Object] p p');
    expect(result.steps[1]?.content).toBe('[object Object] false');
    // The subject sees the payload's `subject`; the body sees the rendered subject, an empty body and no blocks.
    expect(result.steps[2]?.subject).toBe('p');
    expect(result.steps[2]?.content).toBe('p||');
    const hidden = result.findings
      .filter((f) => f.code === 'render-surprise')
      .map((f) => [f.pointer, f.start, f.message.split(' ')[0]]);
    expect(hidden).toEqual([
      ['/steps/0/template/content', 2, '`subscriber`'],
      ['/steps/1/template/content', 2, '`branding`'],
      ['/steps/1/template/content', 15, '`step.digest`'],
      ['/steps/2/template/content', 2, '`subject`'],
      ['/steps/2/template/content', 14, '`body`'],
      ['/steps/2/template/content', 23, '`blocks`'],
    ]);
  });
});
