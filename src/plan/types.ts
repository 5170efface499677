/**
 * The plan: what `wfsync plan` prints and `--out` writes, and what `wfsync sync` applies. Built by a pure function
 * from (desired definitions, state, what the service returned); no I/O, no clock.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import type { RenderedStep } from '../render/types.js';
import type { StepMatch } from './step-match.js';

/** One definition as wfsync will send it to one target. Built before planning; hash computed in the I/O layer. */
export interface DesiredWorkflow {
  /** `triggers[0].identifier`: the workflow's stable key. */
  identifier: string;
  /** Display path of the definition file. */
  file: string;
  definition: WorkflowDefinition;
  /** The POST /v1/workflows body: definition minus wfsync-only fields (`triggers`), group resolved to an id. */
  body: CreateWorkflowBody;
  /** `sha256:<hex>` of the canonical JSON of `body` (sorted keys). */
  hash: string;
}

/** The request body of POST /v1/workflows, as wfsync sends it. */
export interface CreateWorkflowBody {
  name: string;
  notificationGroupId: string;
  steps: Array<Record<string, unknown>>;
  description?: string;
  tags?: string[];
  active?: boolean;
  critical?: boolean;
  preferenceSettings?: Record<string, boolean>;
  data?: Record<string, unknown>;
}

import type { PlanAction, PlanSummary } from './actions.js';

export type { PlanAction, PlanSummary };

/**
 * What told a differing workflow's class (drifted, changed-locally, conflict): `state`, the hash state recorded when
 * it was created; `base`, the definition as it was at the base commit (`plan --base`); `unknown`, neither (without
 * state or a base, wfsync cannot tell whether the file or the service changed).
 */
export type PlanAttribution = 'state' | 'base' | 'unknown';

/** A definition as it was at the base commit (`plan --base`), for one identifier. */
export type BaseVersion =
  /** No definition had this identifier at the base: the file is new in this change. */
  | { status: 'absent' }
  /** The base's definition, built for this target like the file's (its hash compares with the file's). */
  | { status: 'present'; desired: DesiredWorkflow }
  /** A definition had it, but could not be read or built (invalid there, declared twice…): one sentence. */
  | { status: 'unreadable'; reason: string };

/** The base a plan was compared against: the ref given, and the merge-base of HEAD with it. */
export interface PlanBase {
  /** The ref as resolved (`origin/main`, `main`, a commit). */
  ref: string;
  /** The merge-base commit (40 hex digits): the definitions were read as they were there. */
  commit: string;
}

export interface FieldChange {
  /** JSON pointer into the definition (`/steps/0/template/content`). */
  pointer: string;
  /** The same as the user reads it: `steps[0].template.content`. */
  path: string;
  kind: 'changed' | 'only-in-file' | 'only-on-service';
  /** The file's value (after defaults). Absent for only-on-service. */
  desired?: unknown;
  /** The service's value. Absent for only-in-file. */
  actual?: unknown;
}

/** What every plan item holds, whatever its action. */
interface PlanItemBase {
  identifier: string;
  /** Definition file (absent for orphaned). */
  file?: string;
  name?: string;
  /** The workflow's `_id` on the service, when known. */
  remoteId?: string;
  /** The id state records, when it has one. */
  stateId?: string;
  desiredHash?: string;
  /** Hash state recorded when the workflow was created (or adopted). */
  stateHash?: string;
  /** Identifies the service's version (`updatedAt`/`__v`) so `sync --plan` can refuse a stale plan. */
  remoteVersion?: string;
  /** Field-level differences: empty but for a differing item. */
  changes: FieldChange[];
  /** What a person (or sync) should do next, one sentence. */
  next: string;
  /** Problems the service would reject, found while planning (e.g. trigger variables it would derive differently). */
  diagnostics?: Diagnostic[];
}

/** Where an item is in its definition file (pull/file-diff.ts for a differing item, the trigger for a create). */
interface FileLines {
  /** 1-based line in the definition file: a differing item's first change (with `diff`), a create's trigger. */
  line?: number;
  /** Last line of the first change (the first hunk's), at or after `line`. */
  endLine?: number;
}

/** Not on the service: sync will POST `body`. */
export interface CreateItem extends PlanItemBase, FileLines {
  action: 'create';
  /** Exactly what sync will POST. */
  body: CreateWorkflowBody;
  /** What will be created, for a reviewer (plan/preview.ts). */
  preview?: CreatePreview;
  /** The file's steps in order, for the flowchart (plan/step-flow.ts). */
  flow?: StepFlow;
}

/**
 * A promoted target (Production): Development holds the file's version and Production lacks it or differs; sync
 * applies the Development workflow's pending change (plan/promotion.ts).
 */
export interface PromoteItem extends PlanItemBase, FileLines {
  action: 'promote';
  /** The Development workflow's `_id`: the pending change sync applies is the one about it. */
  sourceId: string;
  /** The Development workflow's version (`<_id>@<updatedAt>#<__v>`) the plan saw. */
  sourceVersion: string;
  /** Unified diff of Production's copy (---) against the file (+++); absent when Production has no copy yet. */
  diff?: string;
  /** The Development layouts the steps use: their pending changes are applied first (the service does not). */
  layoutIds?: string[];
}

/** The actions of a workflow found on the service that differs from its file. */
export type DifferingAction = 'drifted' | 'changed-locally' | 'conflict';

/** Found on the service, differing from the file: which side changed (attribution), and where (diff, line). */
export interface DifferingItem extends PlanItemBase, FileLines {
  action: DifferingAction;
  /** What told the class (PlanAttribution). */
  attribution: PlanAttribution;
  /** Unified diff of the service's workflow (---) against the file (+++). */
  diff?: string;
  /**
   * What `diff` is: `file`, the file as it would be if it matched the service (---) against the file as it is
   * (+++), hunks on the file's own lines; `projection`, the compared fields as YAML (when the change lives in an
   * included file or the file cannot be edited in place), whose line numbers are not the file's.
   */
  diffKind?: 'file' | 'projection';
  /** The file's steps in order, for the flowchart (plan/step-flow.ts). */
  flow?: StepFlow;
  /** The changed message steps rendered on both sides (plan/rendered-changes.ts). */
  rendered?: RenderedChanges;
}

/** The request body of PUT /v1/workflows/{id}: the whole desired body, kept steps carrying their `_templateId`. */
export interface UpdateWorkflowBody {
  name: string;
  notificationGroupId: string;
  steps: Array<Record<string, unknown>>;
  description?: string;
  tags?: string[];
  critical?: boolean;
  preferenceSettings?: Record<string, boolean>;
  data?: Record<string, unknown>;
}

/**
 * Found on the service, changed in the file only, and the target allows `update`: sync will PUT `body` (when anything
 * but `active` differs) and set `active` through the status route (when it differs). Shown as a differing item is.
 */
export interface UpdateItem extends Omit<DifferingItem, 'action'> {
  action: 'update';
  /** Exactly what sync will PUT; absent when only `active` differs. */
  body?: UpdateWorkflowBody;
  /** What sync sets through `PUT /v1/workflows/{id}/status`; absent when `active` does not change. */
  active?: boolean;
  /** Which file step is which service step (plan/step-match.ts). */
  steps: StepMatch[];
  /** What the service will do that the file does not say (plan/update-body.ts): kept description, dropped fields. */
  notes?: string[];
}

/** The service could not be asked about it. */
export interface ErrorItem extends PlanItemBase {
  action: 'error';
  /** Why, one sentence. */
  error: string;
}

/** The actions whose items carry nothing beyond what every item holds. */
export interface PlainItem extends PlanItemBase {
  action: 'in-sync' | 'missing-remotely' | 'orphaned';
}

/**
 * A workflow whose file was removed, known to wfsync (state, or the base), that sync will DELETE: `remoteId` and
 * `remoteVersion` are the copy it may delete (sync reads it again right before, and skips it if it changed); without
 * them the service no longer has it, and sync only drops it from state. On a promoted target (Production) sync
 * deletes nothing itself: it applies the pending change of the deleted Development workflow `sourceId`
 * (plan/promotion-delete.ts), which soft-deletes Production's copy `remoteId`.
 */
export interface DeleteItem extends PlanItemBase {
  action: 'delete';
  /** A promoted target: the deleted Development workflow's `_id`, whose pending change sync applies. */
  sourceId?: string;
  /** A promoted target: Production's copy (---) against nothing (`+++ /dev/null`). */
  diff?: string;
}

/** One workflow of a plan, keyed by its action: each action carries what only it has. */
export type PlanItem =
  | CreateItem
  | DifferingItem
  | UpdateItem
  | DeleteItem
  | PromoteItem
  | ErrorItem
  | PlainItem;

/**
 * Any plan item read field by field, as the reports and sync's results read them: what only some actions carry is
 * optional. Every PlanItem is one (`const fields: PlanItemFields = item`).
 */
export type PlanItemFields = PlanItemBase &
  FileLines & { action: PlanAction } & Partial<
    Omit<CreateItem, keyof PlanItemBase | 'action'> &
      Omit<DifferingItem, keyof PlanItemBase | 'action'> &
      Omit<UpdateItem, keyof PlanItemBase | 'action' | 'body'> & {
        body?: CreateWorkflowBody | UpdateWorkflowBody;
      } & Omit<ErrorItem, keyof PlanItemBase | 'action'> &
      Omit<PromoteItem, keyof PlanItemBase | 'action'>
  >;

/** A workflow found on the service that differs from its file (an update included). */
export function isDiffering(item: PlanItem): item is DifferingItem | UpdateItem {
  return (
    item.action === 'drifted' ||
    item.action === 'changed-locally' ||
    item.action === 'conflict' ||
    item.action === 'update'
  );
}

/**
 * The message steps a differing workflow changes, rendered as the service would send them, the service's version and
 * the file's, with one sample (the file's, so a difference is the template's).
 */
export interface RenderedChanges {
  /** The trigger payload both sides were rendered with (the sample built from the file's variables). */
  payload: Record<string, unknown>;
  /** At least one: a differing workflow whose messages render the same has no `rendered`. */
  steps: [RenderedStepChange, ...RenderedStepChange[]];
}

export interface RenderedStepChange {
  /** Position in `steps[]` (the file's; past its end, a step only the service has). */
  index: number;
  /** The file's name for the step (the service's when only it has the step), or its type and position. */
  name: string;
  type: string;
  /** The service's version of the step, rendered; absent when only the file has the step. */
  before?: RenderedText;
  /** The file's version, rendered; absent when only the service has the step. */
  after?: RenderedText;
}

/** A rendered message: the strings as the service would produce them, each capped (`truncated` says one was cut). */
export type RenderedText = Pick<
  RenderedStep,
  'subject' | 'preheader' | 'senderName' | 'title' | 'content' | 'contentType' | 'cta' | 'error'
> & { truncated?: true };

/** What a create makes, as a reviewer reads it (plan/preview.ts). */
export interface CreatePreview {
  /** The trigger identifier the app calls. */
  trigger: string;
  steps: PreviewStep[];
  /** The payload fields the app must send: the trigger's variables, declared or as the service derives them. */
  payload: Array<{ name: string; type?: string }>;
  /** Whether `payload` is the definition's own list or what the service will derive from the templates. */
  payloadFrom: 'declared' | 'derived';
  /** Subscriber fields the workflow needs (`email`, `phone`). */
  subscriberVariables: string[];
  /** The notification group the workflow goes to. */
  group: PreviewGroup;
}

export interface PreviewStep {
  name: string;
  /** The channel (`email`, `sms`, `in_app`, `chat`, `push`) or kind (`digest`, `delay`…) of the step. */
  type: string;
  /** email only. */
  subject?: string;
  /** Set when the step is declared inactive. */
  active?: false;
}

export interface PreviewGroup {
  id: string;
  /** `group:<name>` resolved through the target's config; absent for an id written in the file. */
  name?: string;
  /** `default`: the target's default group (the file names none); `named`: `group:<name>`; `id`: an id in the file. */
  from: 'default' | 'named' | 'id';
}

/** A workflow's steps as a reviewer follows them (plan/step-flow.ts builds it). */
export interface StepFlow {
  /** The trigger identifier the app calls. */
  trigger: string;
  steps: FlowStep[];
}

export interface FlowStep {
  /** Position in `steps[]`. */
  index: number;
  /** The step's name, or its type and position (`email 2`) when it has none. */
  name: string;
  /** The step template's type: `email`, `sms`, `in_app`, `chat`, `push`, `digest`, `delay`, `trigger`, `custom`. */
  type: string;
  /** delay: what it waits (`2 hours`, `until sendAt`); digest: its window (`1 hour, by orderId`). */
  detail?: string;
  /** One summary per filter group (`payload.amount > 100 AND payload.plan = "pro"`): the step runs if any passes. */
  conditions?: string[];
  /** Declared inactive: the service skips it. */
  inactive?: true;
  /** How many variants (alternative versions chosen by their own filters) the step has. */
  variants?: number;
  /** A field of this step differs between the service and the file. */
  changed?: true;
}

export interface Plan {
  /** Version of the plan JSON format. */
  version: 1;
  target: { name: string; baseUrl: string };
  /** Sorted by identifier; orphaned and deleted entries last (state's, then the base's). */
  items: PlanItem[];
  summary: PlanSummary;
  /** Server-managed fields never compared (shown with --show-ignored). */
  ignoredFields: string[];
  /** With `--base` (or GITHUB_BASE_REF): the commit the definitions were compared with. */
  base?: PlanBase;
  /** What the service was asked before merge about refusals sync would meet (plan/preflight.ts). */
  preflight?: PlanPreflight;
}

/**
 * The checks a plan makes against the service's data before anything is merged: the key's environment (may it
 * create?) and the notification groups the workflows to create use. A refused check stops plan and sync, so a
 * plan that is printed holds only the other statuses.
 */
export interface PlanPreflight {
  environment: PreflightCheck;
  notificationGroups: PreflightCheck;
}

export interface PreflightCheck {
  /**
   * `passed`: asked, nothing would be refused. `refused`: sync would fail (the command stops). `skipped`: not asked
   * (nothing to create). `unavailable`: asked, but the service could not tell (an older service without the route).
   */
  status: 'passed' | 'refused' | 'skipped' | 'unavailable';
  /** One sentence: what was found, or why nothing was. */
  message: string;
}
