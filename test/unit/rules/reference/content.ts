// Frozen copy of src/validate/rules/content.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.

import type { Rule, RuleContext } from '../../../../src/validate/rules/types.js';
import type { StepTemplate } from '../../../../src/validate/rules/workflow.js';
import { joinPointer } from './diagnostic.js';
import { allSteps, displayPath, withArticle } from './walk.js';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];

function blank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

/** Report a template field that is absent (at the `template` key) or blank (at the field). */
function checkTemplateField(
  ctx: RuleContext,
  input: { template: StepTemplate; at: string; field: 'content' | 'subject' | 'title'; why: string },
): void {
  const { template, at, field, why } = input;
  const value: unknown = template[field];
  if (value !== undefined && !blank(value)) return;
  const pointer = joinPointer(at, field);
  if (value === undefined) {
    ctx.report(at, `${displayPath(at)} has no ${field}: ${why}, so add ${displayPath(pointer)}.`, {
      target: 'key',
    });
  } else {
    ctx.report(pointer, `${displayPath(pointer)} is empty: ${why}, so fill it in.`);
  }
}

export const stepContentMissing: Rule = {
  code: 'step-content-missing',
  defaultSeverity: 'error',
  description: 'a channel step (in_app, email, sms, chat, push) needs non-empty content',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      const { template } = step;
      if (!CHANNELS.includes(template.type)) continue;
      const at = joinPointer(pointer, 'template');
      const why = `${withArticle(template.type)} step sends its content as the message`;
      if (Array.isArray(template.content)) {
        if (template.content.length > 0) continue;
        const contentAt = joinPointer(at, 'content');
        ctx.report(contentAt, `${displayPath(contentAt)} has no blocks: ${why}, so add at least one block.`);
        continue;
      }
      checkTemplateField(ctx, { template, at, field: 'content', why });
    }
  },
};

export const emailSubjectMissing: Rule = {
  code: 'email-subject-missing',
  defaultSeverity: 'warning',
  description: 'an email step should have a subject',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      if (step.template.type !== 'email') continue;
      const at = joinPointer(pointer, 'template');
      checkTemplateField(ctx, {
        template: step.template,
        at,
        field: 'subject',
        why: 'the email would go out without a subject line',
      });
    }
  },
};

export const pushTitleMissing: Rule = {
  code: 'push-title-missing',
  defaultSeverity: 'warning',
  description: 'a push step should have a title',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      if (step.template.type !== 'push') continue;
      const at = joinPointer(pointer, 'template');
      checkTemplateField(ctx, {
        template: step.template,
        at,
        field: 'title',
        why: 'the notification would show no title',
      });
    }
  },
};

export const ctaActionEmpty: Rule = {
  code: 'cta-action-empty',
  defaultSeverity: 'error',
  description: 'template.cta.action must not be an empty string (the service answers 400)',
  // The schema wants an object here and would only say "must be object": this rule runs first and says why.
  stage: 'before-schema',
  check(ctx) {
    for (const { step, pointer } of rawSteps(ctx.definition.value)) {
      const template = (step as { template?: unknown }).template;
      const cta = isRecord(template) ? template.cta : undefined;
      const action: unknown = isRecord(cta) ? cta.action : undefined;
      if (action !== '') continue;
      const at = joinPointer(pointer, 'template', 'cta', 'action');
      ctx.report(
        at,
        `${displayPath(at)} is an empty string, which the service rejects with 400: remove it or set the action.`,
      );
    }
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Steps and variants of a definition that has not passed the schema: anything may be missing or mistyped. */
function rawSteps(value: unknown): Array<{ step: Record<string, unknown>; pointer: string }> {
  const steps = isRecord(value) && Array.isArray(value.steps) ? value.steps : [];
  const refs: Array<{ step: Record<string, unknown>; pointer: string }> = [];
  steps.forEach((step: unknown, i: number) => {
    if (!isRecord(step)) return;
    const pointer = joinPointer('', 'steps', i);
    refs.push({ step, pointer });
    const variants = Array.isArray(step.variants) ? step.variants : [];
    variants.forEach((variant: unknown, j: number) => {
      if (isRecord(variant)) refs.push({ step: variant, pointer: joinPointer(pointer, 'variants', j) });
    });
  });
  return refs;
}
