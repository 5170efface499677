/**
 * The plan: what `wfsync plan` prints and `--out` writes, and what `wfsync sync` applies. Built by a pure function
 * from (desired definitions, state, what the service returned); no I/O, no clock.
 */
import type { Diagnostic } from '../diagnostic.js';
import type {
  CreatePreview,
  CreateWorkflowBody,
  ErrorOutput,
  FieldChange,
  PlanOutput,
  PreflightCheck,
  RenderedChanges,
  StepFlow,
} from '../generated/plan-output.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import type { PlanAction, PlanSummary } from './actions.js';
import type { StepMatch } from './step-match.js';

/**
 * The parts of a plan that its JSON document shows as they are, typed from schemas/plan-output.schema.json (through
 * `npm run gen`): written once, in the schema, so the plan and its document cannot disagree.
 */
export type {
  CreatePreview,
  CreateWorkflowBody,
  FieldChange,
  PlanAction,
  PlanSummary,
  PreflightCheck,
  RenderedChanges,
  StepFlow,
};

/** The plan document, as the schema types it. */
export type PlanDocument = Exclude<PlanOutput, ErrorOutput>;

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

/**
 * What told a differing workflow's class (drifted, changed-locally, conflict): `state`, the hash state recorded when
 * it was created; `base`, the definition as it was at the base commit (`plan --base`); `unknown`, neither (without
 * state or a base, wfsync cannot tell whether the file or the service changed).
 */
export type PlanAttribution = NonNullable<PlanDocument['items'][number]['attribution']>;

/** A definition as it was at the base commit (`plan --base`), for one identifier. */
export type BaseVersion =
  /** No definition had this identifier at the base: the file is new in this change. */
  | { status: 'absent' }
  /** The base's definition, built for this target like the file's (its hash compares with the file's). */
  | { status: 'present'; desired: DesiredWorkflow }
  /** A definition had it, but could not be read or built (invalid there, declared twice…): one sentence. */
  | { status: 'unreadable'; reason: string };

/** The base a plan was compared against: the ref given (as resolved), and the merge-base of HEAD with it. */
export type PlanBase = NonNullable<PlanDocument['base']>;

/** One item of the plan document, as the schema types it: what each field means is said there. */
type PlanItemDocument = PlanDocument['items'][number];

/**
 * What every plan item holds, whatever its action: its identifier, file and name, the ids and hashes that tell a
 * stale plan (`sync --plan`), the field-level changes (empty but for a differing item), the next step, and the
 * problems the service would reject, found while planning.
 */
type PlanItemBase = Pick<
  PlanItemDocument,
  | 'identifier'
  | 'file'
  | 'name'
  | 'remoteId'
  | 'stateId'
  | 'desiredHash'
  | 'stateHash'
  | 'remoteVersion'
  | 'changes'
  | 'next'
> & { diagnostics?: Diagnostic[] };

/** Where an item is in its definition file (pull/file-diff.ts for a differing item, the trigger for a create). */
type FileLines = Pick<PlanItemDocument, 'line' | 'endLine'>;

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
export type UpdateWorkflowBody = Omit<CreateWorkflowBody, 'active'>;

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

/** One changed message step of a differing workflow, rendered on both sides (plan/rendered-changes.ts). */
export type RenderedStepChange = RenderedChanges['steps'][number];

/** A rendered message: the strings as the service would produce them, each capped (`truncated` says one was cut). */
export type RenderedText = NonNullable<RenderedStepChange['before']>;

/** One step of a create's preview (plan/preview.ts). */
export type PreviewStep = CreatePreview['steps'][number];

/** The notification group a create goes to (plan/preview.ts). */
export type PreviewGroup = CreatePreview['group'];

/** One step of a flowchart (plan/step-flow.ts). */
export type FlowStep = StepFlow['steps'][number];

export interface Plan {
  /** Version of the plan JSON format. */
  version: 1;
  target: PlanDocument['target'];
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
export type PlanPreflight = NonNullable<PlanDocument['preflight']>;
