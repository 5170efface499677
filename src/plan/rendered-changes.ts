/**
 * What a differing workflow's change does to its messages: each message step whose template (content, subject,
 * title, preheader, sender name, call to action) differs, rendered as the service would send it, the service's
 * version and the file's. The service's version is the file's steps with the comparison's changes (service → file)
 * put back, so steps the change leaves alone stay as they are; both sides are rendered with one sample built from
 * the file's variables, so a difference is the template's, not the data's. Only steps that render differently are
 * kept. Pure.
 */
import { splitPointer } from '../diagnostic.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { type RenderedStep, renderWorkflow, sampleData } from '../render/index.js';
import { type PutBack, putBack } from './put-back.js';
import type { FieldChange, RenderedChanges, RenderedStepChange, RenderedText } from './types.js';

/** Longest rendered string kept per side (characters); the rest is cut and `truncated` set. */
export const RENDERED_TEXT_MAX = 20_000;

/** Template fields that change what a recipient gets. */
const MESSAGE_FIELDS = new Set([
  'content',
  'contentType',
  'subject',
  'title',
  'preheader',
  'senderName',
  'cta',
]);
/** Step types that send nothing to a recipient. */
const SILENT = new Set(['digest', 'delay', 'trigger', 'custom']);
const INDEX = /^(0|[1-9][0-9]*)$/;

/** Undefined when no message step differs in what it renders. */
export function buildRenderedChanges(
  definition: WorkflowDefinition,
  changes: readonly FieldChange[],
): RenderedChanges | undefined {
  const touched = touchedSteps(changes);
  if (touched.size === 0) return undefined;
  const service = serviceDefinition(definition, changes);
  if (service === undefined) return undefined;
  const data = sampleData(definition);
  const after = byIndex(renderWorkflow(definition, data).steps);
  const before = byIndex(renderWorkflow(service, data).steps);
  const steps: RenderedStepChange[] = [];
  for (const index of [...touched].sort((a, b) => a - b)) {
    const mine = after.get(index);
    const theirs = before.get(index);
    const shown = mine ?? theirs;
    if (shown === undefined || SILENT.has(shown.type)) continue;
    const a = theirs && textOf(theirs);
    const b = mine && textOf(mine);
    if (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b)) continue;
    steps.push({
      index,
      name: shown.name,
      type: shown.type,
      ...(a === undefined ? {} : { before: a }),
      ...(b === undefined ? {} : { after: b }),
    });
  }
  const [first, ...rest] = steps;
  return first === undefined ? undefined : { payload: data.payload, steps: [first, ...rest] };
}

/** Steps whose message a change touches: the whole step, the whole template, or one of its message fields. */
function touchedSteps(changes: readonly FieldChange[]): Set<number> {
  const out = new Set<number>();
  for (const change of changes) {
    const [list, index, field, sub] = splitPointer(change.pointer);
    if (list !== 'steps' || index === undefined || !INDEX.test(index)) continue;
    if (field === undefined || (field === 'template' && (sub === undefined || MESSAGE_FIELDS.has(sub))))
      out.add(Number(index));
  }
  return out;
}

/**
 * The definition with its steps as the service holds them (see serviceSteps); undefined when a change has no place.
 * The fields outside the steps stay the file's: only the steps are rendered.
 */
export function serviceDefinition(
  definition: WorkflowDefinition,
  changes: readonly FieldChange[],
): WorkflowDefinition | undefined {
  const steps = serviceSteps(definition.steps, changes);
  return steps === undefined ? undefined : ({ ...definition, steps } as WorkflowDefinition);
}

/**
 * The steps as the service holds them: the file's with each change under `/steps` put back (the service's value
 * set, what only the file has removed, a step only the service has appended). Undefined when a change has no place.
 */
function serviceSteps(steps: readonly unknown[], changes: readonly FieldChange[]): unknown[] | undefined {
  const out = structuredClone(steps) as unknown[];
  const edits = changes.flatMap((change): PutBack[] => {
    const [list, ...segments] = splitPointer(change.pointer);
    if (list !== 'steps' || segments.length === 0) return [];
    if (change.kind === 'only-in-file') return [{ segments, remove: true }];
    return [{ segments, value: structuredClone(change.actual) }];
  });
  return putBack(out, edits) ? out : undefined;
}

function byIndex(steps: readonly RenderedStep[]): Map<number, RenderedStep> {
  return new Map(steps.map((step) => [step.index, step]));
}

/** The strings a recipient gets, each capped. */
function textOf(step: RenderedStep): RenderedText {
  const out: RenderedText = {};
  let truncated = false;
  const cap = (text: string) => {
    if (text.length <= RENDERED_TEXT_MAX) return text;
    truncated = true;
    // Never half a surrogate pair.
    const end = /[\ud800-\udbff]/.test(text[RENDERED_TEXT_MAX - 1]!)
      ? RENDERED_TEXT_MAX - 1
      : RENDERED_TEXT_MAX;
    return text.slice(0, end);
  };
  for (const key of ['subject', 'preheader', 'senderName', 'title', 'content'] as const) {
    const value = step[key];
    if (value !== undefined) out[key] = cap(value);
  }
  if (step.contentType !== undefined) out.contentType = step.contentType;
  if (step.cta !== undefined) out.cta = step.cta;
  if (step.error !== undefined) out.error = cap(step.error);
  if (truncated) out.truncated = true;
  return out;
}
