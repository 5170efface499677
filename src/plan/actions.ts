/**
 * The one table of plan actions: per action, how it is counted, shown and annotated, whether it needs a person, the
 * exit code it asks for and what sync does with it. Every report, the exit code, sync and the JSON documents read it;
 * adding an action is a row here and its branch in buildPlan (build-plan.ts). Pure.
 */
import { ExitCode } from '../exit-codes.js';

/** How a status is painted: the human format maps tones to colors. */
export type Tone = 'add' | 'ok' | 'warn' | 'error' | 'muted';

/** The GitHub annotation kind an item becomes. */
export type AnnotationKind = 'notice' | 'warning' | 'error';

/** How a status reads in every text format. */
export interface StatusMeta {
  symbol: string;
  label: string;
  tone: Tone;
  annotation: AnnotationKind;
  /** The label is a noun, so a count takes its plural (`2 conflicts`, but `2 drifted`). */
  noun?: true;
}

/**
/**
 * What sync does with an item: POST it, PUT it, DELETE it, apply its pending change (promote), record the workflow
 * the service already matches, or report it. Every verb but `record` and `report` writes to the service (isWrite).
 */
export type ApplyVerb = 'create' | 'update' | 'delete' | 'promote' | 'record' | 'report';

export interface PlanActionMeta extends StatusMeta {
  /** The action's key in PlanSummary (camelCase). */
  summaryKey: string;
  /** A person must act: sync cannot settle it (what the target does not allow, or what changed on both sides). */
  needsPerson: boolean;
  /** The exit code an item with this action asks for (the plan's is the worst of its items': worstExitCode). */
  exitCode: ExitCode;
  apply: ApplyVerb;
  /** `plan --format codeclimate`: the item's severity, by how much it blocks; absent when it is no problem. */
  codeClimate?: 'info' | 'major' | 'critical';
  /** What sync reports for an item it leaves to a person. */
  reported?: string;
}

/** Every plan action, in the order the summary counts and reports list them. */
export const PLAN_ACTIONS = {
  // Not on the service: sync will POST it.
  create: {
    summaryKey: 'create',
    symbol: '+',
    label: 'create',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Changes,
    apply: 'create',
  },
  // Changed in the file only (the service still holds the version wfsync recorded, or the base's), and the target
  // allows `update`: sync will PUT the whole body (and set `active` through the status route).
  update: {
    summaryKey: 'update',
    symbol: '↑',
    label: 'update',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Changes,
    apply: 'update',
  },
  // Its file was removed and the service still holds the version wfsync recorded (or the base's); the target
  // allows `delete`: sync will DELETE it (a soft delete on the service) and drop it from state. On a promoted target
  // it sends no DELETE: it applies the deleted Development workflow's pending change (plan/promotion-delete.ts).
  delete: {
    summaryKey: 'delete',
    symbol: '-',
    label: 'delete',
    tone: 'warn',
    annotation: 'warning',
    needsPerson: false,
    exitCode: ExitCode.Changes,
    apply: 'delete',
    codeClimate: 'info',
  },
  // A promoted target (Production): Development holds the file's version, Production lacks it or differs. Sync applies
  // the workflow's pending change through the Development key (plan/promotion.ts).
  promote: {
    summaryKey: 'promote',
    symbol: '↑',
    label: 'promote',
    tone: 'add',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Changes,
    apply: 'promote',
  },
  // The service matches the file. Recording an identity the service already holds changes nothing a reviewer must
  // see: 0.
  'in-sync': {
    summaryKey: 'inSync',
    symbol: '✔',
    label: 'in sync',
    tone: 'ok',
    annotation: 'notice',
    needsPerson: false,
    exitCode: ExitCode.Ok,
    apply: 'record',
  },
  // The service's workflow differs from the file, and the file has not changed since it was created.
  drifted: {
    summaryKey: 'drifted',
    symbol: '~',
    label: 'drifted',
    tone: 'warn',
    annotation: 'warning',
    needsPerson: true,
    exitCode: ExitCode.NeedsPerson,
    apply: 'report',
    codeClimate: 'major',
    reported:
      "the service's workflow differs from the file, and the file has not changed since it was created",
  },
  // The file changed since the workflow was created, and sync does not apply it: a person must act.
  'changed-locally': {
    summaryKey: 'changedLocally',
    symbol: '!',
    label: 'changed locally',
    tone: 'warn',
    annotation: 'warning',
    needsPerson: true,
    exitCode: ExitCode.NeedsPerson,
    apply: 'report',
    codeClimate: 'major',
    reported:
      'the file changed since the workflow was created, and workflows cannot be updated through the API',
  },
  // State has an id, the service says 404 (deleted in the dashboard?).
  'missing-remotely': {
    summaryKey: 'missingRemotely',
    symbol: '?',
    label: 'missing remotely',
    tone: 'warn',
    annotation: 'warning',
    needsPerson: true,
    exitCode: ExitCode.NeedsPerson,
    apply: 'report',
    codeClimate: 'major',
    reported: 'state records this workflow, but the service no longer has it',
  },
  // The identifier exists on the service but was not created from this definition. A conflict stops a sync outright.
  conflict: {
    summaryKey: 'conflict',
    symbol: '✖',
    label: 'conflict',
    noun: true,
    tone: 'error',
    annotation: 'warning',
    needsPerson: true,
    exitCode: ExitCode.NeedsPerson,
    apply: 'report',
    codeClimate: 'critical',
    reported: 'the identifier exists on the service, but that workflow was not created from this definition',
  },
  // In state, but no definition file has this identifier any more, and sync will not delete it (the target does not
  // allow `delete`, or the service's copy changed since wfsync recorded it): a person decides. It fails nothing by
  // itself: a notice, an `info` problem.
  orphaned: {
    summaryKey: 'orphaned',
    symbol: '-',
    label: 'orphaned',
    tone: 'muted',
    annotation: 'notice',
    needsPerson: true,
    exitCode: ExitCode.NeedsPerson,
    apply: 'report',
    codeClimate: 'info',
    reported: 'in state, but no definition has this identifier any more',
  },
  // The service could not be asked (the GET failed).
  error: {
    summaryKey: 'error',
    symbol: '✖',
    label: 'error',
    noun: true,
    tone: 'error',
    annotation: 'error',
    needsPerson: false,
    exitCode: ExitCode.Failure,
    apply: 'report',
    codeClimate: 'critical',
  },
} as const satisfies Record<string, PlanActionMeta>;

export type PlanAction = keyof typeof PLAN_ACTIONS;

/** How many items have each action, under the action's camelCase name. */
export type PlanSummary = Record<(typeof PLAN_ACTIONS)[PlanAction]['summaryKey'], number>;

/** The actions in summary order. */
export const PLAN_ACTION_NAMES = Object.keys(PLAN_ACTIONS) as PlanAction[];

/** Whether sync writes to the service for an item of this action (what a Production key is refused for). */
export function isWrite(action: PlanAction): boolean {
  const verb: ApplyVerb = PLAN_ACTIONS[action].apply;
  return verb !== 'record' && verb !== 'report';
}

/** The row of `action`, typed as every row is (optional fields included). */
export function planActionMeta(action: PlanAction): PlanActionMeta {
  return PLAN_ACTIONS[action];
}
