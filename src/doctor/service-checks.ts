import { hashBody } from '../cache/hash.js';
import type { CheckedDefinition } from '../check/check-definitions.js';
import type { ResolvedTarget } from '../config/target.js';
import { ExitCode } from '../exit-codes.js';
import { buildDesired, referencedGroups } from '../plan/desired.js';
import { mayCreate } from '../plan/preflight.js';
import {
  type CurrentEnvironment,
  openTargetSession,
  RemoteError,
  type TargetSession,
} from '../remote/index.js';
import { plural } from '../text.js';
import { failedWith, ok, skipped, warn } from './results.js';
import type { CheckResult } from './types.js';

/** The checks that ask the service, each answered (run or skipped). */
export interface ServiceChecks {
  reachable: CheckResult;
  'key-accepted': CheckResult;
  environment: CheckResult;
  'notification-groups': CheckResult;
}

/** What a failure to reach the service is, as opposed to the service answering "no". */
const UNREACHABLE_KINDS = new Set(['network', 'timeout', 'protocol', 'server', 'not-found']);

/**
 * Ask the service, read-only: the key's environment (`GET /v1/environments/me`), which also tells whether it is
 * reachable (through the proxy the environment names, as every command) and whether it takes the key; then its
 * notification groups, against the groups the valid definitions use on this target. Each request is made once
 * (no retries): doctor reports a failure rather than waiting it out.
 */
export async function checkService(
  target: ResolvedTarget,
  env: NodeJS.ProcessEnv,
  definitions: readonly CheckedDefinition[] | undefined,
): Promise<ServiceChecks> {
  let session: TargetSession;
  try {
    session = await openTargetSession({ ...target, retries: { ...target.retries, maxAttempts: 1 } }, { env });
  } catch (error) {
    // A bad base URL or proxy variable: nothing was sent.
    return unreached(failedWith(error));
  }
  try {
    return await askService(session, target, definitions);
  } finally {
    await session.close();
  }
}

function unreached(reachable: CheckResult): ServiceChecks {
  const why = skipped('the service could not be reached');
  return { reachable, 'key-accepted': why, environment: why, 'notification-groups': why };
}

async function askService(
  session: TargetSession,
  target: ResolvedTarget,
  definitions: readonly CheckedDefinition[] | undefined,
): Promise<ServiceChecks> {
  // The embedded emulator's port changes with every run: not worth printing.
  const route =
    target.kind === 'local'
      ? 'the embedded emulator, in-process (proxies never apply)'
      : session.route.replace(/^connecting to /, '');
  let environment: CurrentEnvironment | undefined;
  try {
    environment = await session.client.getCurrentEnvironment();
  } catch (error) {
    if (!(error instanceof RemoteError)) throw error;
    if (UNREACHABLE_KINDS.has(error.kind)) {
      const hint =
        target.kind === 'local'
          ? undefined
          : 'behind a proxy, check HTTPS_PROXY/HTTP_PROXY and NO_PROXY (either case): the line above says the route taken';
      const failed = failedWith(error, hint);
      return unreached({ ...failed, message: `${failed.message} (${route})` });
    }
    const reachable = ok(route);
    if (error.kind === 'auth') {
      const why = skipped(`the service did not accept the key`);
      return {
        reachable,
        'key-accepted': failedWith(
          error,
          `put the API key of the service's Development environment in ${target.apiKeyEnv} (Settings > API Keys)`,
        ),
        environment: why,
        'notification-groups': why,
      };
    }
    const failed = failedWith(error);
    return { reachable, 'key-accepted': failed, environment: failed, 'notification-groups': failed };
  }
  const reachable = ok(route);
  const accepted =
    target.kind === 'local'
      ? ok("the embedded emulator's own key")
      : ok(`the service accepted the key in $${target.apiKeyEnv}`);
  return {
    reachable,
    'key-accepted': accepted,
    environment: describeEnvironment(environment, target),
    // As the preflight: the groups matter only to a key that may create (and Production's differ from Development's).
    'notification-groups':
      environment !== undefined && !mayCreate(environment)
        ? skipped(`the key's environment may not create workflows (see "key's environment")`)
        : await checkGroups(session, target, definitions),
  };
}

/** The key's environment and what it means for this target: only a Development (root) environment may create. */
export function describeEnvironment(
  environment: CurrentEnvironment | undefined,
  target: ResolvedTarget,
): CheckResult {
  if (environment === undefined) {
    return warn(
      'the service does not answer GET /v1/environments/me (404: an older or different service)',
      "make sure the key is the Development environment's: only it may create workflows",
    );
  }
  const name = JSON.stringify(environment.name);
  const source = target.promoteFrom?.name;
  if (source !== undefined) {
    // A promoted target reads Production with its key; the writes go through the Development target's.
    if (environment._parentId !== undefined)
      return ok(
        `${name} (derived from another one): target "${target.name}" is promoted from "${source}", and its key only reads`,
      );
    return warn(
      `${name} is not derived from another environment: target "${target.name}" is promoted from "${source}" and needs a Production key, so plan and sync would stop (exit 4)`,
      `give ${target.apiKeyEnv} the Production environment's API key (it is only used to read)`,
    );
  }
  if (mayCreate(environment)) return ok(`${name}: may create workflows (plan, sync and pull all work)`);
  const derived = environment._parentId === undefined ? '' : ' (derived from another one)';
  return warn(
    `${name}${derived}: workflows are view-only there; plan, pull and state show work, but sync to target ` +
      `"${target.name}" would be refused (401) for every workflow to create`,
    `to sync, give ${target.apiKeyEnv} the Development environment's key; to bring workflows here, give this key to ` +
      `a target with promoteFrom: "${target.name}" (it only reads)`,
  );
}

async function checkGroups(
  session: TargetSession,
  target: ResolvedTarget,
  definitions: readonly CheckedDefinition[] | undefined,
): Promise<CheckResult> {
  if (definitions === undefined) return skipped('the definitions are invalid (see "workflows")');
  if (target.kind === 'local')
    return ok("the local target's embedded service resolves every group to its own");
  const { desired, diagnostics } = buildDesired(
    definitions,
    session.groups(referencedGroups(definitions)),
    hashBody,
  );
  if (diagnostics.length > 0) {
    const [first] = diagnostics;
    return {
      status: 'fail',
      message: `${plural(diagnostics.length, 'workflow')} name a group target "${target.name}" does not define: ${first!.file}: ${first!.message}`,
      hint: `add it to notificationGroups of target "${target.name}" in the config`,
      exitCode: ExitCode.Invalid,
    };
  }
  if (desired.length === 0) return skipped('no definitions use a group');
  let groups: Awaited<ReturnType<TargetSession['client']['listNotificationGroups']>>;
  try {
    groups = await session.client.listNotificationGroups();
  } catch (error) {
    return failedWith(error);
  }
  if (groups === undefined) {
    return {
      status: 'warn',
      message: 'the service does not answer GET /v1/notification-groups (404: an older or different service)',
    };
  }
  const known = new Set(groups.map((g) => g._id));
  const used = [...new Set(desired.map((d) => d.body.notificationGroupId))];
  const missing = used.filter((id) => !known.has(id));
  if (missing.length === 0) {
    return ok(
      `the ${plural(used.length, 'group')} the definitions use ${used.length === 1 ? 'exists' : 'exist'} in the key's environment`,
    );
  }
  const users = desired.filter((d) => missing.includes(d.body.notificationGroupId)).map((d) => d.identifier);
  return {
    status: 'fail',
    message: `${plural(users.length, 'workflow')} (${users.join(', ')}) use ${missing.join(', ')}, which the key's environment does not have`,
    hint: `point target "${target.name}"'s notificationGroupId or notificationGroups at groups of that environment`,
    exitCode: ExitCode.Invalid,
  };
}
