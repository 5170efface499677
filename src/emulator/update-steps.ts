import { isRecord, type Json } from '../json.js';
import { type BuildContext, buildStep, buildTemplate, buildVariable } from './build-workflow.js';
import { badRequest, type EmulatorHttpError, notFound } from './http-error.js';
import type { StoredWorkflow } from './types.js';

/**
 * An update's `steps`, as the service writes them: the list sent replaces the whole list, in its order. A step is
 * matched to a stored one only by `_templateId` (never by `_id`, `uuid` or name): a match updates that message
 * template, no `_templateId` creates a new one, an unknown one is a 404. Every stored template left out is
 * soft-deleted. Per-step fields come from what was sent alone (left out = back to the defaults).
 * Not atomic, like the service: the templates are written one by one, so a failure half-way leaves the earlier
 * template updates in place while the workflow keeps its old step list.
 */

export type StepWrites =
  | { ok: true; steps: Json[]; written: Json[] }
  | { ok: false; error: EmulatorHttpError; updated: Map<string, Json>; written: Json[] };

/** Template fields that change only when the update sends them non-empty. */
const KEPT_WHEN_EMPTY = ['name', 'content', 'contentType', 'subject', 'title', 'actor'];

export function writeSteps(existing: StoredWorkflow, sent: readonly Json[], ctx: BuildContext): StepWrites {
  const stored = new Map(existing.steps.map((s) => [s._templateId as string, s.template as Json]));
  const updated = new Map<string, Json>();
  const written: Json[] = [];
  const steps: Json[] = [];
  let parentId: string | null = null;
  for (const step of sent) {
    if (!isRecord(step.template)) {
      const error = badRequest("Something un-expected happened, template couldn't be found");
      return { ok: false, error, updated, written };
    }
    const templateId = typeof step._templateId === 'string' ? step._templateId : undefined;
    let template: Json;
    if (templateId === undefined) template = buildTemplate(step.template, ctx.newId(), ctx);
    else {
      const current = updated.get(templateId) ?? stored.get(templateId);
      if (current === undefined) {
        const error = notFound(`Message template with id ${templateId} not found`);
        return { ok: false, error, updated, written };
      }
      template = updateTemplate(current, step.template, ctx);
      updated.set(templateId, template);
    }
    written.push(template);
    const built = buildStep(step, parentId, ctx, template);
    steps.push(built);
    parentId = built._id as string;
  }
  const kept = new Set(steps.map((s) => s._templateId));
  const deletedAt = new Date(ctx.now).toISOString();
  for (const [id, template] of stored) {
    if (!kept.has(id)) written.push({ ...template, deleted: true, deletedAt, updatedAt: deletedAt });
  }
  return { ok: true, steps, written };
}

/**
 * The message-template update: the type never changes; the fields in KEPT_WHEN_EMPTY, `variables` and `layoutId`
 * only when sent non-empty; `cta` and `feedId` are removed when left out; `preheader` and `senderName` when sent.
 */
function updateTemplate(current: Json, sent: Json, ctx: BuildContext): Json {
  const next: Json = { ...current, updatedAt: new Date(ctx.now).toISOString() };
  for (const field of KEPT_WHEN_EMPTY) if (nonEmpty(sent[field])) next[field] = sent[field];
  if (Array.isArray(sent.variables) && sent.variables.length > 0) {
    next.variables = sent.variables.filter(isRecord).map((v) => buildVariable(v, ctx));
  }
  if (nonEmpty(sent.layoutId)) next._layoutId = sent.layoutId;
  if (sent.cta === undefined || sent.cta === null) delete next.cta;
  else next.cta = sent.cta;
  next._feedId = sent.feedId ? sent.feedId : null;
  for (const field of ['preheader', 'senderName']) if (sent[field] !== undefined) next[field] = sent[field];
  return next;
}

function nonEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

/** The stored steps with the templates a failed update had already written (its earlier writes stay). */
export function withWrittenTemplates(steps: readonly Json[], updated: ReadonlyMap<string, Json>): Json[] {
  return steps.map((s) => {
    const template = updated.get(s._templateId as string);
    return template === undefined ? s : { ...s, template };
  });
}
