import { describe, expect, it } from 'vitest';
import { withStepNames } from '../../../src/plan/step-names.js';
import type { FieldChange } from '../../../src/plan/types.js';

const DEFINITION = {
  name: 'w',
  steps: [
    { name: 'Send email', template: { type: 'email', subject: 'Hi' } },
    { name: 'mail', template: { type: 'in_app' }, variants: [{ name: 'vip', template: { type: 'in_app' } }] },
    { template: { type: 'sms' } },
  ],
};

const at = (pointer: string, path: string, extra: Partial<FieldChange> = {}): FieldChange => ({
  pointer,
  path,
  kind: 'changed',
  actual: 1,
  desired: 2,
  ...extra,
});

describe('withStepNames', () => {
  it('names each step (and variant) on the way to the field; the pointer stays', () => {
    const [subject, variant, top, unnamed] = withStepNames(
      [
        at('/steps/0/template/subject', 'steps[0].template.subject'),
        at('/steps/1/variants/0/template/content', 'steps[1].variants[0].template.content'),
        at('/critical', 'critical'),
        at('/steps/2/template/content', 'steps[2].template.content'),
      ],
      DEFINITION,
    );
    expect(subject).toMatchObject({
      pointer: '/steps/0/template/subject',
      path: 'steps[0] "Send email".template.subject',
    });
    expect(variant?.path).toBe('steps[1] "mail".variants[0] "vip".template.content');
    expect(top?.path).toBe('critical');
    expect(unnamed?.path).toBe('steps[2].template.content');
  });

  it('a step only the service has is named as the service names it; names are quoted and cut', () => {
    const [extra] = withStepNames(
      [
        {
          pointer: '/steps/3',
          path: 'steps[3]',
          kind: 'only-on-service',
          actual: { name: `"x"${'y'.repeat(60)}` },
        },
      ],
      DEFINITION,
    );
    expect(extra?.path).toBe(`steps[3] ${JSON.stringify(`"x"${'y'.repeat(36)}…`)}`);
  });
});
