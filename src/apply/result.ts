/** What `sync` returns (SyncResult, for the report renderers), and how its summary and status are built. */
import type { Diagnostic } from '../diagnostic.js';
import { ExitCode, worstExitCode } from '../exit-codes.js';
import { PLAN_ACTIONS, type PlanActionMeta, type StatusMeta } from '../plan/actions.js';
import type { StepMatch } from '../plan/step-match.js';
import type { FieldChange, Plan, PlanItemFields } from '../plan/types.js';
import { buildVerdict, type Verdict } from '../plan/verdict.js';

export interface SyncOutcomeMeta extends StatusMeta {
  /** The outcome's key in the JSON document's summary (camelCase). */
  summaryKey: string;
  /** The workflow waits on a person: sync will not write it (the statuses plan shares). */
  needsPerson: boolean;
  /** The exit code the outcome asks for; the sync's status is the worst of its outcomes' (buildSyncStatus). */
  exitCode: ExitCode;
  /** Named in the closing sentence even at 0, so scripts and eyes find it in the same place. */
  alwaysCounted: boolean;
}

/** A plan action that sync only reports, read from the plan's table: the same label, symbol and class. */
function asPlanned(action: keyof typeof PLAN_ACTIONS, alwaysCounted = false): SyncOutcomeMeta {
  const row: PlanActionMeta = PLAN_ACTIONS[action];
  const { symbol, label, tone, annotation, summaryKey, needsPerson, exitCode } = row;
  const shared = { symbol, label, tone, annotation, summaryKey, needsPerson, exitCode, alwaysCounted };
  return row.noun ? { ...shared, noun: true } : shared;
}

/** Every outcome of one workflow, in the order reports list them. */
export const SYNC_OUTCOMES = {
  created: {
    summaryKey: 'created',
    symbol: '+',
    label: 'created',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Ok,
    alwaysCounted: true,
  },
  // PUT (and the status route), read back and equal to the file: state holds the new hash.
  updated: {
    summaryKey: 'updated',
    symbol: '↑',
    label: 'updated',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Ok,
    alwaysCounted: false,
  },
  // Deleted on the service (a soft delete, verified by a 404) and dropped from state; or only dropped from state,
  // the service no longer having it. Named only when it happened: a sync that may not delete never says `0 deleted`.
  deleted: {
    summaryKey: 'deleted',
    symbol: '-',
    label: 'deleted',
    tone: 'warn',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Ok,
    alwaysCounted: false,
  },
  // A promoted target: the workflow's pending change was applied and Production's copy now equals the file.
  promoted: {
    summaryKey: 'promoted',
    symbol: '↑',
    label: 'promoted',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Ok,
    alwaysCounted: false,
  },
  'in-sync': asPlanned('in-sync', true),
  drifted: asPlanned('drifted', true),
  'changed-locally': asPlanned('changed-locally'),
  'missing-remotely': asPlanned('missing-remotely'),
  conflict: asPlanned('conflict'),
  orphaned: asPlanned('orphaned'),
  failed: {
    summaryKey: 'failed',
    symbol: '✖',
    label: 'failed',
    tone: 'error',
    annotation: 'error',
    needsPerson: false,
    exitCode: ExitCode.Failure,
    alwaysCounted: true,
  },
  // Not written because the run stopped (the next sync picks it up, but someone has to run it), or a delete left
  // undone because the service's copy changed since the plan (the next plan shows it to a person): exit 6.
  skipped: {
    summaryKey: 'skipped',
    symbol: '·',
    label: 'skipped',
    tone: 'muted',
    annotation: 'warning',
    needsPerson: false,
    exitCode: ExitCode.NeedsPerson,
    alwaysCounted: true,
  },
} as const satisfies Record<string, SyncOutcomeMeta>;

export type SyncOutcome = keyof typeof SYNC_OUTCOMES;

/** The outcomes in the order reports list them. */
export const SYNC_OUTCOME_NAMES = Object.keys(SYNC_OUTCOMES) as SyncOutcome[];

export function isSyncOutcome(value: string): value is SyncOutcome {
  return Object.hasOwn(SYNC_OUTCOMES, value);
}

/** The row of `outcome`, typed as every row is. */
export function syncOutcomeMeta(outcome: SyncOutcome): SyncOutcomeMeta {
  return SYNC_OUTCOMES[outcome];
}

/**
 * The class of a sync and the exit code it ends with: `ok` (0), `action-needed` (6: drift, local changes, conflicts,
 * missing, orphaned or skipped workflows: a person must act), `failed` (1), `auth` (4), `rate-limited` (5). Orphaned
 * entries count: sync did not delete them (not allowed, or changed on the service), so a person decides.
 */
export const SYNC_STATUSES = {
  ok: ExitCode.Ok,
  'action-needed': ExitCode.NeedsPerson,
  failed: ExitCode.Failure,
  auth: ExitCode.Auth,
  'rate-limited': ExitCode.RateLimited,
} as const;

export type SyncStatus = keyof typeof SYNC_STATUSES;

export interface SyncResult {
  plan: Plan;
  /** One per plan item, in plan order. */
  outcomes: SyncItemResult[];
  /** Exact count per outcome (every outcome present, zeros included). */
  summary: Record<SyncOutcome, number>;
  /** The signal stopped creates from starting: some are `skipped`. */
  interrupted: boolean;
  status: SyncStatus;
}

/** Where a workflow is and what kind of difference its plan item found: the same fields, the same names. */
export type PlanItemDetails = Pick<PlanItemFields, 'file' | 'line' | 'endLine' | 'attribution' | 'diffKind'>;

export interface SyncItemResult extends PlanItemDetails {
  identifier: string;
  outcome: SyncOutcome;
  remoteId?: string;
  message?: string;
  changes?: FieldChange[];
  diff?: string;
  /** updated: which file step is which service step, as the plan item's. */
  steps?: StepMatch[];
  diagnostics?: Diagnostic[];
  /** What a person should do next, one sentence. */
  next?: string;
}

const DETAIL_KEYS = ['file', 'line', 'endLine', 'attribution', 'diffKind'] as const;

/**
 * `result` with the location and difference class of the plan item it executed (file, line and endLine of the first
 * change, attribution, diffKind), so a reader of a sync's outcome need not look them up in its plan. What the result
 * already says (a create's file) is kept.
 */
export function withPlanDetails(item: PlanItemFields, result: SyncItemResult): SyncItemResult {
  const details = Object.fromEntries(
    DETAIL_KEYS.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]),
  ) as PlanItemDetails;
  return { ...details, ...result };
}

/** Exact count per outcome; every outcome is present. */
export function summarizeOutcomes(outcomes: readonly SyncItemResult[]): Record<SyncOutcome, number> {
  const summary = Object.fromEntries(SYNC_OUTCOME_NAMES.map((o) => [o, 0])) as Record<SyncOutcome, number>;
  for (const { outcome } of outcomes) summary[outcome]++;
  return summary;
}

/**
 * A rejected key or an exhausted rate limit decides the status (they stopped the run); then any failure; then
 * anything a person must act on (see SYNC_STATUSES): the worst of the outcomes' exit codes.
 */
export function buildSyncStatus(
  outcomes: readonly SyncItemResult[],
  stoppedBy: 'auth' | 'rate-limited' | undefined,
): SyncStatus {
  if (stoppedBy !== undefined) return stoppedBy;
  const worst = worstExitCode(outcomes.map((o) => SYNC_OUTCOMES[o.outcome].exitCode));
  if (worst === ExitCode.Failure) return 'failed';
  return worst === ExitCode.NeedsPerson ? 'action-needed' : 'ok';
}

/** The sync's status as an exit code; interrupted with nothing worse wrong is a failure (1). */
export function syncExitCode(result: Pick<SyncResult, 'status' | 'interrupted'>): SyncExitCode {
  const code = SYNC_STATUSES[result.status];
  // Interrupted with nothing worse wrong still must not look like success, nor like a person's job alone.
  const interrupted = result.interrupted && (code === ExitCode.Ok || code === ExitCode.NeedsPerson);
  return interrupted ? ExitCode.Failure : code;
}

/** What a sync says of itself (plan/verdict.ts): its exit code, the workflows that need a person, the meaning. */
/** The codes a sync that ran ends with. */
export type SyncExitCode = (typeof SYNC_STATUSES)[SyncStatus];

export function buildSyncVerdict(
  result: Pick<SyncResult, 'status' | 'interrupted' | 'outcomes'>,
): Verdict<SyncExitCode> {
  return buildVerdict(
    syncExitCode(result),
    result.outcomes.filter((o) => SYNC_OUTCOMES[o.outcome].needsPerson).map((o) => o.identifier),
  );
}
