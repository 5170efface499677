import { randomBytes } from 'node:crypto';

/**
 * The fake service's memory: both environments, their workflows and message templates (soft-deleted ones kept),
 * the changes log, and the id and clock sources. Documents are plain JSON records, stored as the service would hold
 * them; responses are built from them by workflow-document.ts.
 */

export type Doc = Record<string, unknown>;

export type EnvironmentName = 'Development' | 'Production';

export interface Group {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
  _parentId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Environment {
  _id: string;
  name: EnvironmentName;
  identifier: string;
  _organizationId: string;
  _parentId?: string;
  key: string;
  groups: Group[];
  /** Workflows by `_id`, insertion order = creation order; `deleted: true` ones stay. */
  workflows: Map<string, Doc>;
  /** Message templates by `_id` (a step's `_templateId`); `deleted: true` ones stay. */
  templates: Map<string, Doc>;
}

export interface Change {
  _id: string;
  _entityId: string;
  type: 'NotificationTemplate' | 'MessageTemplate' | 'NotificationGroup';
  change: Doc;
  enabled: boolean;
  _parentId?: string;
  _environmentId: string;
  _organizationId: string;
  _creatorId: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakeState {
  organizationId: string;
  creatorId: string;
  development: Environment;
  production: Environment;
  changes: Change[];
  newId(): string;
  /** ISO 8601 with ms and Z, strictly later than any earlier answer (so `updatedAt` always moves). */
  now(): string;
}

/** A 24-hex ObjectId: 4 bytes of seconds, then 8 random-per-process bytes made unique by a counter. */
export function objectIdSource(): () => string {
  const base = randomBytes(5).toString('hex');
  let counter = randomBytes(3).readUIntBE(0, 3);
  return () => {
    counter = (counter + 1) % 0x1000000;
    const seconds = Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, '0');
    return `${seconds}${base}${counter.toString(16).padStart(6, '0')}`;
  };
}

export function monotonicClock(): () => string {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
}

export function environmentOf(state: FakeState, name: EnvironmentName): Environment {
  return name === 'Development' ? state.development : state.production;
}

/** The live (not deleted) workflows of an environment, oldest first. */
export function liveWorkflows(environment: Environment): Doc[] {
  return [...environment.workflows.values()].filter((w) => w.deleted !== true);
}
