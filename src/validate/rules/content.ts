import { joinPointer } from '../../diagnostic.js';
import { isRecord } from '../../json.js';
import type { Rule, RuleContext } from './types.js';
import { allSteps, displayPath, withArticle } from './walk.js';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];

/** Present and not blank: what the rules below want of a template field. */
function filled(value: unknown): boolean {
  return value !== undefined && !(typeof value === 'string' && value.trim() === '');
}

/** Report a template field that is absent (at the `template` key) or blank (at the field). */
function reportTemplateField(
  ctx: RuleContext,
  stepPointer: string,
  field: 'content' | 'subject' | 'title',
  value: unknown,
  why: string,
): void {
  const at = joinPointer(stepPointer, 'template');
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
      const { content } = template;
      if (Array.isArray(content) ? content.length > 0 : filled(content)) continue;
      const why = `${withArticle(template.type)} step sends its content as the message`;
      if (Array.isArray(content)) {
        const contentAt = joinPointer(pointer, 'template', 'content');
        ctx.report(contentAt, `${displayPath(contentAt)} has no blocks: ${why}, so add at least one block.`);
        continue;
      }
      reportTemplateField(ctx, pointer, 'content', content, why);
    }
  },
};

export const emailSubjectMissing: Rule = {
  code: 'email-subject-missing',
  defaultSeverity: 'warning',
  description: 'an email step should have a subject',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      const { template } = step;
      if (template.type !== 'email' || filled(template.subject)) continue;
      reportTemplateField(
        ctx,
        pointer,
        'subject',
        template.subject,
        'the email would go out without a subject line',
      );
    }
  },
};

export const pushTitleMissing: Rule = {
  code: 'push-title-missing',
  defaultSeverity: 'warning',
  description: 'a push step should have a title',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      const { template } = step;
      if (template.type !== 'push' || filled(template.title)) continue;
      reportTemplateField(ctx, pointer, 'title', template.title, 'the notification would show no title');
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
    // The definition has not passed the schema: anything may be missing or mistyped.
    const value = ctx.definition.value;
    const steps: unknown[] = isRecord(value) && Array.isArray(value.steps) ? value.steps : [];
    steps.forEach((step, i) => {
      if (!isRecord(step)) return;
      if (hasEmptyAction(step)) reportEmptyAction(ctx, joinPointer('', 'steps', i));
      const variants: unknown[] = Array.isArray(step.variants) ? step.variants : [];
      variants.forEach((variant, j) => {
        if (isRecord(variant) && hasEmptyAction(variant)) {
          reportEmptyAction(ctx, joinPointer('', 'steps', i, 'variants', j));
        }
      });
    });
  },
};

function hasEmptyAction(step: Record<string, unknown>): boolean {
  const template = step.template;
  const cta = isRecord(template) ? template.cta : undefined;
  return isRecord(cta) && cta.action === '';
}

function reportEmptyAction(ctx: RuleContext, stepPointer: string): void {
  const at = joinPointer(stepPointer, 'template', 'cta', 'action');
  ctx.report(
    at,
    `${displayPath(at)} is an empty string, which the service rejects with 400: remove it or set the action.`,
  );
}
