import { joinPointer } from '../../diagnostic.js';
import { isRecord } from '../../json.js';
import { checkTimedSchedule, present } from './metadata-timed.js';
import type { Rule, RuleContext } from './types.js';
import { allSteps, displayPath, listWords, quote, withArticle } from './walk.js';

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
const FIELDS: Record<StepKind, Record<string, readonly string[]>> = {
  digest: {
    regular: REGULAR_DIGEST,
    backoff: REGULAR_DIGEST,
    timed: ['type', 'amount', 'unit', 'digestKey', 'timed'],
  },
  delay: { regular: ['type', 'amount', 'unit'], scheduled: ['type', 'delayPath'] },
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
      if (stepType === 'digest' || stepType === 'delay') {
        checkTimerMetadata(ctx, { kind: stepType, metadata: step.metadata, stepPointer: pointer });
      } else if (step.metadata !== undefined) {
        const at = joinPointer(pointer, 'metadata');
        ctx.report(
          at,
          `${displayPath(at)} is set on ${withArticle(stepType)} step, but only digest and ` +
            `delay steps take metadata: remove it.`,
          { target: 'key' },
        );
      }
    }
  },
};

/** Fields a metadata type needs, and why (for the message). */
interface Need {
  fields: readonly string[];
  why: string;
}

const AMOUNT_UNIT = ['amount', 'unit'];
const NEEDS = {
  scheduledDelay: {
    fields: ['delayPath'],
    why: 'a scheduled delay waits until the date found at that payload path',
  },
  regularDelay: { fields: AMOUNT_UNIT, why: 'a regular delay waits that long' },
  timedDigest: { fields: AMOUNT_UNIT, why: 'a timed digest sends every `amount` `unit`s' },
  regularDigest: { fields: AMOUNT_UNIT, why: 'a regular digest collects events for that long' },
  backoffDigest: { fields: AMOUNT_UNIT, why: 'a backoff digest collects events for that long' },
  backoffWindow: {
    fields: ['backoffAmount', 'backoffUnit'],
    why: 'a backoff digest only starts when events came within that window',
  },
} satisfies Record<string, Need>;

interface TimerMetadata {
  kind: StepKind;
  metadata: unknown;
  stepPointer: string;
}

interface MetadataAt {
  metadata: Record<string, unknown>;
  stepPointer: string;
}

function metadataPointer(stepPointer: string): string {
  return joinPointer(stepPointer, 'metadata');
}

// Pointers and messages are only built for a finding: most metadata fits.
function checkTimerMetadata(ctx: RuleContext, input: TimerMetadata): void {
  const { kind, metadata, stepPointer } = input;
  if (!isRecord(metadata)) {
    ctx.report(
      joinPointer(stepPointer, 'template', 'type'),
      `${displayPath(stepPointer)} is a ${kind} step without metadata: add ` +
        `${displayPath(metadataPointer(stepPointer))} with a type (${listWords(KINDS[kind])}).`,
    );
    return;
  }
  const type = metadata.type;
  if (type === undefined) {
    const at = metadataPointer(stepPointer);
    ctx.report(at, `${displayPath(at)} needs a type (${listWords(KINDS[kind])}).`, { target: 'key' });
    return;
  }
  if (typeof type !== 'string' || !KINDS[kind].includes(type)) {
    const at = metadataPointer(stepPointer);
    ctx.report(
      joinPointer(at, 'type'),
      `${displayPath(at)}.type ${quote(type)} is not a ${kind} type: use ${listWords(KINDS[kind])}.`,
    );
    return;
  }
  const allowed = FIELDS[kind][type]!;
  for (const key of Object.keys(metadata)) {
    if (allowed.includes(key)) continue;
    const at = metadataPointer(stepPointer);
    const why = ONLY_WITH[key] ?? `it is not a ${kind} metadata field`;
    ctx.report(
      joinPointer(at, key),
      `${displayPath(at)}.${key} does not fit a ${type} ${kind} (${why}): remove it.`,
      { target: 'key' },
    );
  }
  const checked: MetadataAt = { metadata, stepPointer };
  if (kind === 'delay') {
    need(ctx, checked, type === 'scheduled' ? NEEDS.scheduledDelay : NEEDS.regularDelay);
  } else if (type === 'timed') {
    need(ctx, checked, NEEDS.timedDigest);
    checkTimedSchedule(ctx, metadata, metadataPointer(stepPointer));
  } else {
    need(ctx, checked, type === 'backoff' ? NEEDS.backoffDigest : NEEDS.regularDigest);
    if (
      type === 'backoff' ||
      metadata.backoff === true ||
      present(metadata.backoffAmount) ||
      present(metadata.backoffUnit)
    ) {
      need(ctx, checked, NEEDS.backoffWindow);
    }
  }
}

/** Report the fields of `need` that are missing; the worker treats an amount of 0 like a missing one. */
function need(ctx: RuleContext, { metadata, stepPointer }: MetadataAt, { fields, why }: Need): void {
  const absent = fields.filter((f) => !present(metadata[f]) || metadata[f] === 0);
  if (absent.length === 0) return;
  const names = listWords(
    absent.map((f) => (metadata[f] === 0 ? `\`${f}\` above 0` : `\`${f}\``)),
    'and',
  );
  const at = metadataPointer(stepPointer);
  ctx.report(at, `${displayPath(at)} needs ${names}: ${why}.`, { target: 'key' });
}
