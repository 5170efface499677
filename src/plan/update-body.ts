/**
 * What an update sends, and what the service's update cannot do, decided before merge: the PUT body (the whole desired
 * body, each kept step carrying the service's `_templateId`), whether `active` goes through the status route, and
 * either notes on what the service will do that the file does not say or, when the update cannot reach the file,
 * why not (the item then stays with a person, so sync never repeats a PUT that changes nothing). Pure.
 */
import type { WorkflowResponse } from '../generated/workflow-response.js';
import { isRecord } from '../json.js';
import { matchSteps, type StepMatch } from './step-match.js';
import type { DesiredWorkflow, FieldChange, UpdateItem, UpdateWorkflowBody } from './types.js';

/** What an update item writes and says (types.ts UpdateItem), its notes always listed. */
export type UpdateParts = Pick<UpdateItem, 'body' | 'active' | 'steps'> & { notes: string[] };

export type BuiltUpdate = { update: UpdateParts } | { blocked: string };

/** Fields the service's update sets only when sent non-empty: a value emptied in the file is never reached. */
const WORKFLOW_KEPT_WHEN_EMPTY = new Set(['name', 'description']);
const TEMPLATE_KEPT_WHEN_EMPTY = new Set([
  'name',
  'content',
  'variables',
  'contentType',
  'subject',
  'title',
  'actor',
  'layoutId',
]);
/** What a PUT step leaves out is lost: the fields a kept step may hold on the service that the file may not say. */
const DROPPED_STEP_FIELDS = ['filters', 'metadata', 'replyCallback', 'variants'] as const;
const DROPPED_TEMPLATE_FIELDS = ['cta', 'feedId', '_feedId'] as const;

export function buildUpdate(
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  changes: readonly FieldChange[],
): BuiltUpdate {
  const serviceSteps = (workflow.steps ?? []) as unknown as Array<Record<string, unknown>>;
  const matching = matchSteps(desired.body.steps, serviceSteps);
  const blocked = findUnreachable(changes, matching.templateIds);
  if (blocked !== undefined) return { blocked };
  const onlyActive = changes.every((c) => c.pointer === '/active');
  const activeChanges = changes.some((c) => c.pointer === '/active');
  const { active: _active, ...rest } = desired.body;
  const body: UpdateWorkflowBody = {
    ...rest,
    steps: desired.body.steps.map((step, i) => {
      const templateId = matching.templateIds[i];
      return templateId === undefined ? step : { ...step, _templateId: templateId };
    }),
  };
  const notes = onlyActive ? [] : buildNotes(desired, workflow, matching.steps, matching.templateIds);
  return {
    update: {
      ...(onlyActive ? {} : { body }),
      ...(activeChanges ? { active: desired.body.active ?? false } : {}),
      steps: onlyActive ? [] : matching.steps,
      notes,
    },
  };
}

/**
 * Why the update cannot make the service equal the file, or undefined: the trigger identifier is never changed by an
 * update; the trigger's lists are the service's to derive; a field the service keeps when sent empty.
 */
function findUnreachable(
  changes: readonly FieldChange[],
  templateIds: ReadonlyArray<string | undefined>,
): string | undefined {
  if (changes.some((c) => c.pointer.startsWith('/triggers/0/identifier')))
    return "the service's trigger identifier differs from the file's, and an update never changes an identifier";
  if (changes.every((c) => c.pointer.startsWith('/triggers/')))
    return "only the trigger's variables differ, and the service derives those from the steps: an update would not change them";
  for (const change of changes) {
    if (!isEmpty(change.desired) || change.kind === 'only-on-service') continue;
    const parts = change.pointer.split('/').slice(1);
    if (parts.length === 1 && WORKFLOW_KEPT_WHEN_EMPTY.has(parts[0]!))
      return `the file empties \`${parts[0]}\`, which the service's update cannot clear: clear it in the dashboard (sync then finds them equal and records it)`;
    const [list, index, template, field] = parts;
    if (
      list === 'steps' &&
      template === 'template' &&
      parts.length === 4 &&
      TEMPLATE_KEPT_WHEN_EMPTY.has(field!) &&
      templateIds[Number(index)] !== undefined
    )
      return `the file empties \`${change.path}\`, which the service's update keeps when sent empty: clear it in the dashboard (sync then finds them equal and records it)`;
  }
  return undefined;
}

function buildNotes(
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  steps: readonly StepMatch[],
  templateIds: ReadonlyArray<string | undefined>,
): string[] {
  const notes: string[] = [];
  if (desired.body.description === undefined && nonEmpty(workflow.description))
    notes.push(
      'the service keeps its description (the file has none, and an update cannot clear one): clear it in the dashboard if it should go',
    );
  if (desired.body.notificationGroupId !== workflow._notificationGroupId)
    notes.push(
      `the group changes to ${desired.body.notificationGroupId}: the service stores it without checking that it exists`,
    );
  const byTemplate = new Map(
    ((workflow.steps ?? []) as unknown as Array<Record<string, unknown>>).map((s) => [s._templateId, s]),
  );
  for (const [i, step] of desired.body.steps.entries()) {
    const held = templateIds[i] === undefined ? undefined : byTemplate.get(templateIds[i]);
    if (held === undefined) continue;
    const dropped = [
      ...DROPPED_STEP_FIELDS.filter((f) => step[f] === undefined && nonEmpty(held[f])),
      ...DROPPED_TEMPLATE_FIELDS.filter(
        (f) =>
          fieldOf(step.template, f.replace(/^_/, '')) === undefined && nonEmpty(fieldOf(held.template, f)),
      ).map((f) => `template.${f.replace(/^_/, '')}`),
    ];
    const unique = [...new Set(dropped)];
    if (unique.length > 0)
      notes.push(
        `step "${steps[i]!.name}": the service's ${unique.map((f) => `\`${f}\``).join(', ')} ${unique.length === 1 ? 'is' : 'are'} dropped (the file has none, and an update keeps only what it sends)`,
      );
  }
  for (const step of steps) {
    if (step.match === 'replaced')
      notes.push(
        `step "${step.name}": replaced, channel ${step.from} → ${step.channel} (the service never changes a step's channel: a new step and template replace it)`,
      );
  }
  return notes;
}

function fieldOf(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || (Array.isArray(value) && value.length === 0);
}

/** Holds something a person wrote: not only empty lists, `false` and the service's empty defaults (`metadata.timed`). */
function nonEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false;
  if (Array.isArray(value)) return value.some(nonEmpty);
  if (isRecord(value)) return Object.values(value).some(nonEmpty);
  return true;
}
