import { randomBytes } from 'node:crypto';
import { ServiceError, unauthorized } from './http.js';
import type { Environment, EnvironmentName, FakeState, Group } from './state.js';

/**
 * The two environments of one organisation (Production derived from Development: `_parentId` = Development's
 * `_id`), each with one API key and a default group `General`; the key check of every request; the key's
 * environment as `GET /v1/environments/me` shows it.
 */

export interface EnvironmentSeeds {
  organizationId: string;
  creatorId: string;
  newId(): string;
  now(): string;
  devKey?: string;
  prodKey?: string;
  /** Development groups besides `General`. */
  groups?: string[];
}

export function buildEnvironments(seeds: EnvironmentSeeds): {
  development: Environment;
  production: Environment;
} {
  const { organizationId, newId, now } = seeds;
  const group = (environmentId: string, name: string, parentId?: string): Group => {
    const at = now();
    return {
      _id: newId(),
      name,
      _environmentId: environmentId,
      _organizationId: organizationId,
      ...(parentId === undefined ? {} : { _parentId: parentId }),
      createdAt: at,
      updatedAt: at,
    };
  };
  const developmentId = newId();
  const productionId = newId();
  const devGeneral = group(developmentId, 'General');
  const development: Environment = {
    _id: developmentId,
    name: 'Development',
    identifier: randomBytes(6).toString('hex'),
    _organizationId: organizationId,
    key: seeds.devKey ?? `fake_dev_${randomBytes(16).toString('hex')}`,
    groups: [devGeneral, ...(seeds.groups ?? []).map((name) => group(developmentId, name))],
    workflows: new Map(),
    templates: new Map(),
  };
  const production: Environment = {
    _id: productionId,
    name: 'Production',
    identifier: randomBytes(6).toString('hex'),
    _organizationId: organizationId,
    _parentId: developmentId,
    key: seeds.prodKey ?? `fake_prod_${randomBytes(16).toString('hex')}`,
    groups: [group(productionId, 'General', devGeneral._id)],
    workflows: new Map(),
    templates: new Map(),
  };
  return { development, production };
}

/** The environment the request's key opens, or the service's 401. */
export function authenticate(state: FakeState, header: string | undefined): Environment {
  if (header === undefined || header === '') throw unauthorized('Missing authorization header');
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'ApiKey') throw unauthorized(`Invalid authentication scheme: "${scheme}"`);
  const key = header.slice(space + 1);
  for (const environment of [state.development, state.production]) {
    if (environment.key === key) return environment;
  }
  throw unauthorized('API Key not found');
}

/** POST, DELETE and the status route: the service's guard for anything but Development. */
export function requireDevelopment(environment: Environment): void {
  if (environment.name !== 'Development')
    throw new ServiceError(401, 'This action is only allowed in Development environment');
}

export function environmentBody(environment: Environment, creatorId: string): Record<string, unknown> {
  return {
    _id: environment._id,
    name: environment.name as EnvironmentName,
    _organizationId: environment._organizationId,
    identifier: environment.identifier,
    ...(environment._parentId === undefined ? {} : { _parentId: environment._parentId }),
    apiKeys: [{ key: environment.key, _userId: creatorId }],
  };
}
