import type { EnvironmentIdentity } from './build-workflow.js';

/**
 * The two environments an emulator serves and the read-only routes about them: `GET /v1/environments/me` (the key's
 * environment, `apiKeys` included, as the service answers it) and `GET /v1/notification-groups` (the environment's
 * groups, its default `General` first). Development is the root environment; Production is derived from it
 * (`_parentId`), so it may view workflows but not create or edit them.
 */

export interface NotificationGroupDoc {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
  /** A Production group points at the Development group it was promoted from. */
  _parentId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface EmulatedEnvironment {
  _id: string;
  name: 'Development' | 'Production';
  _organizationId: string;
  identifier: string;
  _parentId?: string;
  /** The keys that authenticate as this environment (what `apiKeys` lists). */
  keys: readonly string[];
  /** Production's grow as promotion copies Development's groups over. */
  groups: NotificationGroupDoc[];
  createdAt: string;
  updatedAt: string;
}

export interface Environments {
  development: EmulatedEnvironment;
  production: EmulatedEnvironment;
}

export interface EnvironmentsInput {
  identity: EnvironmentIdentity;
  productionEnvironmentId: string;
  developmentKeys: readonly string[];
  productionKeys: readonly string[];
  /** Development's groups besides `General` (ids already chosen); duplicates of an id are dropped. */
  groups: ReadonlyArray<{ id: string; name: string }>;
  /** Production's `General` (the promoted copy of Development's). */
  productionGroupId: string;
  /** ms since the epoch: when the environments were made. */
  now: number;
}

export function buildEnvironments(input: EnvironmentsInput): Environments {
  const { identity } = input;
  const timestamp = new Date(input.now).toISOString();
  const stamp = { createdAt: timestamp, updatedAt: timestamp };
  const group = (
    id: string,
    name: string,
    environmentId: string,
    parentId?: string,
  ): NotificationGroupDoc => ({
    _id: id,
    name,
    _environmentId: environmentId,
    _organizationId: identity.organizationId,
    ...(parentId === undefined ? {} : { _parentId: parentId }),
    ...stamp,
  });
  const environment = (
    id: string,
    name: EmulatedEnvironment['name'],
    keys: readonly string[],
    groups: NotificationGroupDoc[],
    parentId?: string,
  ): EmulatedEnvironment => ({
    _id: id,
    name,
    _organizationId: identity.organizationId,
    // A public identifier: the service's is a short random string; this one survives restarts.
    identifier: id.slice(-12),
    ...(parentId === undefined ? {} : { _parentId: parentId }),
    keys,
    groups,
    ...stamp,
  });
  const seen = new Set([identity.notificationGroupId]);
  const extra = input.groups.filter((g) => !seen.has(g.id) && seen.add(g.id));
  const development = identity.environmentId;
  const production = input.productionEnvironmentId;
  return {
    development: environment(development, 'Development', input.developmentKeys, [
      group(identity.notificationGroupId, 'General', development),
      ...extra.map((g) => group(g.id, g.name, development)),
    ]),
    production: environment(
      production,
      'Production',
      input.productionKeys,
      [group(input.productionGroupId, 'General', production, identity.notificationGroupId)],
      development,
    ),
  };
}

/**
 * `GET /v1/environments/me` → the 200 body. `apiKeys` holds the environment's keys in clear, exactly as the
 * service sends them: the client must drop it on receipt.
 */
export function environmentAnswer(environment: EmulatedEnvironment, userId: string): { data: unknown } {
  const { keys, groups: _groups, ...fields } = environment;
  return { data: { ...fields, apiKeys: keys.map((key) => ({ key, _userId: userId })) } };
}

/** `GET /v1/notification-groups` → the 200 body: the environment's groups, `General` first. */
export function groupsAnswer(environment: EmulatedEnvironment): { data: NotificationGroupDoc[] } {
  return { data: environment.groups.map((g) => ({ ...g })) };
}
