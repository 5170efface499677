/**
 * PURE: what `sync` would be refused for, decided at plan time from facts fetched before (remote/preflight.ts):
 * a key whose environment may not create (only Development may: Production is view-only for workflows and takes
 * changes through the dashboard's promotion), and workflows to create whose notification group does not exist in
 * the key's environment (the service would store them anyway, in no group). Checks that need only the definitions
 * (name length, step count, unique tags…) are validate's; these are the ones that need the service's data.
 */
import type { CheckedDefinition } from '../check/check-definitions.js';
import type { ResolvedTarget } from '../config/target.js';
import { type Diagnostic, FILE_START, type Span } from '../diagnostic.js';
import type { CurrentEnvironment, NotificationGroup, PreflightFacts } from '../remote/index.js';
import { plural } from '../text.js';
import { isWrite } from './actions.js';
import type { CreateItem, Plan, PlanItem, PlanPreflight, PreflightCheck } from './types.js';

/** What of the target the checks word their findings with (ResolvedTarget fits). */
export type PreflightTarget = Pick<ResolvedTarget, 'name' | 'kind' | 'apiKeyEnv'>;

export interface PreflightInput {
  plan: Plan;
  /** The definitions the plan was built from, for positions. */
  definitions: readonly CheckedDefinition[];
  target: PreflightTarget;
  facts: PreflightFacts;
}

/** A check that stops the command: the environment (exit 4) or missing groups (exit 3, one finding per workflow). */
export type PreflightRefusal =
  | { check: 'environment'; message: string }
  | { check: 'notificationGroups'; message: string; diagnostics: Diagnostic[] };

/**
 * What to ask the service: the key's environment whenever the plan writes anything (a create, a delete: the
 * actions table's apply verb says which), the groups only when it creates (at most two requests per run, whatever
 * the number of workflows). The local target's embedded service resolves every group to its own, so its groups are
 * not asked.
 */
export function preflightQuestions(
  plan: Plan,
  target: PreflightTarget,
): { environment: boolean; groups: boolean } {
  const creating = plan.summary.create > 0;
  return {
    environment: plan.items.some((item) => isWrite(item.action)),
    groups: creating && target.kind !== 'local',
  };
}

export function buildPreflight(input: PreflightInput): {
  preflight: PlanPreflight;
  refusal?: PreflightRefusal;
} {
  const creates = input.plan.items.filter((item): item is CreateItem => item.action === 'create');
  const writes = input.plan.items.filter((item) => isWrite(item.action));
  if (writes.length === 0) {
    const skipped = check('skipped', 'not asked: nothing to create');
    return { preflight: { environment: skipped, notificationGroups: skipped } };
  }
  const { facts, target } = input;
  const environment = facts.environment.status === 'found' ? facts.environment.value : undefined;
  const where =
    environment === undefined
      ? "the API key's environment"
      : `environment ${quoteServiceText(environment.name)}`;
  if (environment !== undefined && !mayCreate(environment)) {
    // Refused before any write, whatever the write: the service does not guard every route (an update's PUT).
    const message = environmentRefusal(environment, target, writes);
    return {
      preflight: {
        environment: check('refused', message),
        notificationGroups: check('skipped', `not checked: ${where} may not create workflows`),
      },
      refusal: { check: 'environment', message },
    };
  }
  const environmentCheck =
    facts.environment.status === 'found'
      ? check('passed', `the API key belongs to ${where}, which may create workflows`)
      : facts.environment.status === 'unavailable'
        ? check('unavailable', `could not check the API key's environment: ${facts.environment.reason}`)
        : check('skipped', 'not asked');
  if (creates.length === 0) {
    const groupsCheck = check('skipped', 'not asked: nothing to create');
    return { preflight: { environment: environmentCheck, notificationGroups: groupsCheck } };
  }
  if (facts.groups.status !== 'found') {
    const groupsCheck =
      facts.groups.status === 'unavailable'
        ? check('unavailable', `could not check the notification groups: ${facts.groups.reason}`)
        : check(
            'skipped',
            target.kind === 'local'
              ? "not asked: the local target's embedded service resolves every group to its own"
              : 'not asked',
          );
    return { preflight: { environment: environmentCheck, notificationGroups: groupsCheck } };
  }
  const groups = facts.groups.value;
  const known = new Set(groups.map((g) => g._id));
  const missing = creates.filter((item) => !known.has(item.body.notificationGroupId));
  const among = `${plural(groups.length, 'notification group')} in ${where}`;
  if (missing.length === 0) {
    const message = `every workflow to create uses one of the ${among}`;
    return { preflight: { environment: environmentCheck, notificationGroups: check('passed', message) } };
  }
  const uses = missing.length === 1 ? 'uses a notification group' : 'use notification groups';
  const message = `${plural(missing.length, 'workflow')} to create ${uses} that ${where} does not have; nothing was sent`;
  const diagnostics = missing.map((item) => missingGroupDiagnostic(item, input, where, groups));
  return {
    preflight: { environment: environmentCheck, notificationGroups: check('refused', message) },
    refusal: { check: 'notificationGroups', message, diagnostics },
  };
}

/**
 * The service's guard: only a root environment may create (one derived from another, Production, answers 401
 * "only allowed in Development environment"). A service that leaves `_parentId` out still names Production.
 */
export function mayCreate(environment: CurrentEnvironment): boolean {
  return environment._parentId === undefined && environment.name !== 'Production';
}

function environmentRefusal(
  environment: CurrentEnvironment,
  target: PreflightTarget,
  writes: readonly PlanItem[],
): string {
  const derived = environment._parentId === undefined ? '' : ' (derived from another one)';
  const creates = writes.filter((w) => w.action === 'create');
  // The words of a create-only plan are what they always were; any other write is named with its action.
  const what =
    creates.length === writes.length
      ? `the ${plural(creates.length, 'workflow')} to create (${listed(creates.map((c) => c.identifier))})`
      : `the ${plural(writes.length, 'workflow')} to write (${listed(writes.map((w) => `${w.action} ${w.identifier}`))})`;
  const verb = creates.length === writes.length ? 'create them' : 'write them';
  return (
    `the API key in $${target.apiKeyEnv} belongs to the service's ${quoteServiceText(environment.name)} environment${derived}, ` +
    `where workflows are view-only: only a Development-environment key may ${verb}, so sync would be refused ` +
    `(401) for ${what}. ` +
    `Give target "${target.name}" the Development environment's API key and sync there, then, to bring them ` +
    `to this environment, give this key to a target whose promoteFrom is "${target.name}" (it only reads); nothing was sent`
  );
}

function missingGroupDiagnostic(
  item: CreateItem,
  input: PreflightInput,
  where: string,
  groups: readonly NotificationGroup[],
): Diagnostic {
  const id = item.body.notificationGroupId;
  const definition = input.definitions.find((d) => d.file === item.file && d.identifier === item.identifier);
  const reference = definition?.workflow.notificationGroupId;
  const name = input.target.name;
  const config = 'in wfsync.config.yaml';
  const [which, fix] =
    reference === undefined
      ? [
          `the default notification group of target "${name}" (${id})`,
          `set targets.${name}.notificationGroupId ${config} (or WFSYNC_NOTIFICATION_GROUP_ID) to one of its ids`,
        ]
      : reference.startsWith('group:')
        ? [
            `notification group "${reference}" (${id})`,
            `set targets.${name}.notificationGroups.${reference.slice('group:'.length)} ${config} to one of its ids`,
          ]
        : [`notification group ${id}`, 'use one of its ids'];
  const shown = groups.slice(0, 5).map((g) => `${quoteServiceText(g.name)} ${g._id}`);
  if (groups.length > 5) shown.push(`and ${groups.length - 5} more`);
  const choices = shown.length === 0 ? 'it has none' : shown.join(', ');
  const message =
    `${which} does not exist in ${where}: the service would still create the workflow, under a group it does ` +
    `not have; ${fix} (${choices})`;
  // A reference points at its own line; a default group at the workflow as a whole (its name), as buildDesired does.
  const pointer = reference === undefined ? '' : '/notificationGroupId';
  const span: Span =
    definition === undefined
      ? FILE_START
      : reference === undefined
        ? definition.locate('/name', 'key')
        : definition.locate(pointer);
  return {
    code: 'notification-group-missing',
    severity: 'error',
    message,
    file: item.file ?? '',
    pointer,
    ...span,
  };
}

function check(status: PreflightCheck['status'], message: string): PreflightCheck {
  return { status, message };
}

/**
 * Text from the service in a message: quoted and escaped as JSON (which leaves C1 controls, bidi controls and lone
 * surrogates as they are: those are escaped too), and cut to a readable length.
 */
export function quoteServiceText(text: string): string {
  const cut = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return JSON.stringify(cut).replace(
    /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/gu,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function listed(identifiers: readonly string[]): string {
  const shown = identifiers.slice(0, 5);
  return identifiers.length > 5 ? `${shown.join(', ')} and ${identifiers.length - 5} more` : shown.join(', ');
}
