// Frozen copy of src/validate/rules/metadata.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.

import type { Rule, RuleContext } from '../../../../src/validate/rules/types.js';
import { joinPointer } from './diagnostic.js';
import { checkTimedSchedule, present } from './metadata-timed.js';
import { allSteps, displayPath, isRecord, listWords, quote, withArticle } from './walk.js';

type StepKind = 'digest' | 'delay';

const KINDS: Record<StepKind, readonly string[]> = {
  digest: ['regular', 'backoff', 'timed'],
  delay: ['regular', 'scheduled'],
};

const REGULAR_DIGEST = [
  'type',
  'amount',
  'unit',
  'digestKey',
  'backoff',
  'backoffAmount',
  'backoffUnit',
  'updateMode',
];
/** The metadata fields each step kind and metadata type takes (contract: "Step metadata"). */
const FIELDS: Record<string, readonly string[]> = {
  'digest.regular': REGULAR_DIGEST,
  'digest.backoff': REGULAR_DIGEST,
  'digest.timed': ['type', 'amount', 'unit', 'digestKey', 'timed'],
  'delay.regular': ['type', 'amount', 'unit'],
  'delay.scheduled': ['type', 'delayPath'],
};

/** Why a known field does not fit, by field. */
const ONLY_WITH: Record<string, string> = {
  backoff: 'only regular and backoff digests use it',
  backoffAmount: 'only regular and backoff digests use it',
  backoffUnit: 'only regular and backoff digests use it',
  updateMode: 'only regular and backoff digests use it',
  timed: 'only timed digests use it',
  delayPath: 'only scheduled delays use it',
  digestKey: 'only digests use it',
  amount: 'a scheduled delay waits until the date at delayPath instead',
  unit: 'a scheduled delay waits until the date at delayPath instead',
};

export const metadataStepType: Rule = {
  code: 'metadata-step-type',
  defaultSeverity: 'error',
  description: 'step metadata must fit the step type (digest, delay) and its metadata type',
  check(ctx) {
    for (const { step, pointer } of allSteps(ctx.workflow)) {
      const stepType = step.template.type;
      const at = joinPointer(pointer, 'metadata');
      const path = displayPath(at);
      if (stepType !== 'digest' && stepType !== 'delay') {
        if (step.metadata !== undefined) {
          ctx.report(
            at,
            `${path} is set on ${withArticle(stepType)} step, but only digest and ` +
              `delay steps take metadata: remove it.`,
            { target: 'key' },
          );
        }
        continue;
      }
      checkTimerMetadata(ctx, { kind: stepType, metadata: step.metadata, at, stepPointer: pointer });
    }
  },
};

function checkTimerMetadata(
  ctx: RuleContext,
  input: { kind: StepKind; metadata: unknown; at: string; stepPointer: string },
): void {
  const { kind, metadata, at } = input;
  const path = displayPath(at);
  const kinds = listWords(KINDS[kind]);
  if (!isRecord(metadata)) {
    ctx.report(
      joinPointer(input.stepPointer, 'template', 'type'),
      `${displayPath(input.stepPointer)} is a ${kind} step without metadata: add ${path} with a type (${kinds}).`,
    );
    return;
  }
  const type = metadata.type;
  if (type === undefined) {
    ctx.report(at, `${path} needs a type (${kinds}).`, { target: 'key' });
    return;
  }
  if (typeof type !== 'string' || !KINDS[kind].includes(type)) {
    ctx.report(joinPointer(at, 'type'), `${path}.type ${quote(type)} is not a ${kind} type: use ${kinds}.`);
    return;
  }
  const allowed = FIELDS[`${kind}.${type}`]!;
  for (const key of Object.keys(metadata)) {
    if (allowed.includes(key)) continue;
    const why = ONLY_WITH[key] ?? `it is not a ${kind} metadata field`;
    ctx.report(joinPointer(at, key), `${path}.${key} does not fit a ${type} ${kind} (${why}): remove it.`, {
      target: 'key',
    });
  }
  const need = (fields: readonly string[], why: string) => {
    // The worker treats an amount of 0 like a missing one.
    const absent = fields.filter((f) => !present(metadata[f]) || metadata[f] === 0);
    if (absent.length === 0) return;
    const names = listWords(
      absent.map((f) => (metadata[f] === 0 ? `\`${f}\` above 0` : `\`${f}\``)),
      'and',
    );
    ctx.report(at, `${path} needs ${names}: ${why}.`, { target: 'key' });
  };
  if (kind === 'delay' && type === 'scheduled') {
    need(['delayPath'], 'a scheduled delay waits until the date found at that payload path');
  } else if (kind === 'delay') {
    need(['amount', 'unit'], 'a regular delay waits that long');
  } else if (type === 'timed') {
    need(['amount', 'unit'], 'a timed digest sends every `amount` `unit`s');
    checkTimedSchedule(ctx, metadata, at);
  } else {
    need(['amount', 'unit'], `a ${type} digest collects events for that long`);
    if (
      type === 'backoff' ||
      metadata.backoff === true ||
      present(metadata.backoffAmount) ||
      present(metadata.backoffUnit)
    ) {
      need(
        ['backoffAmount', 'backoffUnit'],
        'a backoff digest only starts when events came within that window',
      );
    }
  }
}
