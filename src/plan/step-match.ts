/**
 * Which step of the file is which step on the service, for an update: the service keeps a step's message template
 * only when the PUT carries its `_templateId`, so this decides which templates survive. The rule, in order:
 * 1. the same name and channel (`template.type`): the first service step not yet taken;
 * 2. then by position among the steps of the same channel still unmatched on both sides (the first unmatched `sms`
 *    step of the file is the first unmatched `sms` step of the service);
 * a file step left over is new (a new template); a service step left over is removed (the service soft-deletes its
 * template); a new step and a removed one with the same name are one step whose channel changed ("replaced": the
 * service never changes a template's type, so it gets a new one). Pure.
 */
import type { StepMatch } from '../generated/plan-output.js';
import { isRecord } from '../json.js';

/** One step as the plan shows its matching, typed from schemas/plan-output.schema.json. */
export type { StepMatch };

/** What the matching gives an update: per file step, the template it keeps (if any), and the list to show. */
export interface StepMatching {
  /** By the file's step index: the service's `_templateId` the step keeps, undefined for a new one. */
  templateIds: Array<string | undefined>;
  /** The file's steps in order (kept, new, replaced), then the service's removed ones in their order. */
  steps: StepMatch[];
}

/** The little the matching reads of a step, on either side. */
export interface MatchableStep {
  name?: unknown;
  template?: unknown;
  _templateId?: unknown;
}

export function matchSteps(local: readonly MatchableStep[], service: readonly MatchableStep[]): StepMatching {
  const localChannels = local.map(channelOf);
  const serviceChannels = service.map(channelOf);
  const pairedWith: Array<number | undefined> = local.map(() => undefined);
  const taken = new Set<number>();
  // 1. Same name, same channel.
  for (const [i, step] of local.entries()) {
    const name = nameOf(step);
    if (name === undefined) continue;
    const k = service.findIndex(
      (theirs, j) => !taken.has(j) && nameOf(theirs) === name && serviceChannels[j] === localChannels[i],
    );
    if (k >= 0) {
      pairedWith[i] = k;
      taken.add(k);
    }
  }
  // 2. By position among the unmatched steps of the same channel.
  for (const [i, channel] of localChannels.entries()) {
    if (pairedWith[i] !== undefined) continue;
    const k = serviceChannels.findIndex((theirs, j) => !taken.has(j) && theirs === channel);
    if (k >= 0) {
      pairedWith[i] = k;
      taken.add(k);
    }
  }
  const removed = service.map((_, j) => j).filter((j) => !taken.has(j));
  const replacedBy = new Map<number, number>();
  for (const [i, step] of local.entries()) {
    if (pairedWith[i] !== undefined) continue;
    const name = nameOf(step);
    const j = removed.find((r) => !replacedBy.has(r) && name !== undefined && nameOf(service[r]!) === name);
    if (j !== undefined) replacedBy.set(j, i);
  }
  const replacing = new Map([...replacedBy].map(([j, i]) => [i, j]));
  const templateIds = pairedWith.map((k) => (k === undefined ? undefined : templateIdOf(service[k]!)));
  const steps: StepMatch[] = local.map((step, i) => {
    const base = { name: displayName(step, localChannels[i]!, i), channel: localChannels[i]! };
    const k = pairedWith[i];
    if (k !== undefined) {
      const templateId = templateIds[i];
      return { ...base, match: 'kept', ...(templateId === undefined ? {} : { templateId }) };
    }
    const j = replacing.get(i);
    if (j !== undefined) return { ...base, match: 'replaced', from: serviceChannels[j]! };
    return { ...base, match: 'new' };
  });
  for (const j of removed) {
    if (replacedBy.has(j)) continue;
    steps.push({
      name: displayName(service[j]!, serviceChannels[j]!, j),
      channel: serviceChannels[j]!,
      match: 'removed',
    });
  }
  return { templateIds, steps };
}

function channelOf(step: MatchableStep): string {
  const template = step.template;
  const type = isRecord(template) ? template.type : undefined;
  return typeof type === 'string' ? type : 'unknown';
}

function nameOf(step: MatchableStep): string | undefined {
  return typeof step.name === 'string' && step.name !== '' ? step.name : undefined;
}

function templateIdOf(step: MatchableStep): string | undefined {
  return typeof step._templateId === 'string' && step._templateId !== '' ? step._templateId : undefined;
}

function displayName(step: MatchableStep, channel: string, index: number): string {
  return nameOf(step) ?? `${channel} ${index + 1}`;
}
