import { isRecord } from '../json.js';
import { orderEntry, orderPending } from './format.js';
import type { PendingWrite, StateEntry, StateFile } from './types.js';

export const STATE_VERSION = 1;
/** A MongoDB ObjectId as the service writes it: 24 lower-case hex. */
export const OBJECT_ID = /^[0-9a-f]{24}$/;
const HASH = /^sha256:[0-9a-f]{64}$/;
const ORIGINS: ReadonlySet<string> = new Set(['created', 'adopted', 'rebuilt']);

export type StateCheck =
  | { state: StateFile }
  /** `newer`: a version this wfsync does not know (upgrade); `corrupt`: anything else wrong with the content. */
  | { problem: string; kind: 'corrupt' | 'newer' };

/**
 * Check parsed JSON against the state format and return a normalized copy holding only the known fields
 * (unknown ones are dropped, not kept: the version number is what marks an incompatible format).
 * Problems name the JSON path, e.g. `workflows["order-shipped"].id must be …`.
 */
export function checkState(value: unknown): StateCheck {
  if (!isRecord(value)) return corrupt('expected a JSON object');
  const version = value.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > STATE_VERSION) {
    return {
      kind: 'newer',
      problem: `format version ${version}; this wfsync reads version ${STATE_VERSION}`,
    };
  }
  if (version !== STATE_VERSION) return corrupt(`"version" must be 1, found ${JSON.stringify(version)}`);
  if (typeof value.target !== 'string' || value.target === '') return corrupt('"target" must be a string');
  if (typeof value.baseUrl !== 'string' || value.baseUrl === '') return corrupt('"baseUrl" must be a string');
  if (!isRecord(value.workflows)) return corrupt('"workflows" must be an object');
  if (!isRecord(value.pending)) return corrupt('"pending" must be an object');
  const workflows: [string, StateEntry][] = [];
  for (const [identifier, entry] of Object.entries(value.workflows)) {
    const problem = findEntryProblem(identifier, entry);
    if (problem !== undefined) return corrupt(`workflows[${JSON.stringify(identifier)}]${problem}`);
    workflows.push([identifier, orderEntry(entry as StateEntry)]);
  }
  const pending: [string, PendingWrite][] = [];
  for (const [identifier, entry] of Object.entries(value.pending)) {
    const problem = findPendingProblem(identifier, entry);
    if (problem !== undefined) return corrupt(`pending[${JSON.stringify(identifier)}]${problem}`);
    pending.push([identifier, orderPending(entry as PendingWrite)]);
  }
  return {
    state: {
      version: STATE_VERSION,
      target: value.target,
      baseUrl: value.baseUrl,
      workflows: Object.fromEntries(workflows),
      pending: Object.fromEntries(pending),
    },
  };
}

/** What is wrong with one `workflows` entry, as a path suffix + sentence (` .id must be …`), or undefined. */
export function findEntryProblem(identifier: string, entry: unknown): string | undefined {
  if (identifier === '') return ' has an empty identifier';
  if (!isRecord(entry)) return ' must be an object';
  if (typeof entry.id !== 'string' || !OBJECT_ID.test(entry.id)) {
    return `.id must be a 24-character lower-case hex id, found ${JSON.stringify(entry.id)}`;
  }
  if (typeof entry.hash !== 'string' || !HASH.test(entry.hash)) {
    return `.hash must be "sha256:" and 64 lower-case hex digits, found ${JSON.stringify(entry.hash)}`;
  }
  if (typeof entry.origin !== 'string' || !ORIGINS.has(entry.origin)) {
    return `.origin must be "created", "adopted" or "rebuilt", found ${JSON.stringify(entry.origin)}`;
  }
  if (entry.file !== undefined && typeof entry.file !== 'string') return '.file must be a string';
  if (
    entry.remoteVersion !== undefined &&
    (typeof entry.remoteVersion !== 'string' || entry.remoteVersion.length > 200)
  )
    return '.remoteVersion must be a string';
  if (!isTimestamp(entry.recordedAt)) return '.recordedAt must be an ISO timestamp';
  return undefined;
}

/** What is wrong with one `pending` entry (the journal), or undefined. */
export function findPendingProblem(identifier: string, entry: unknown): string | undefined {
  if (identifier === '') return ' has an empty identifier';
  if (!isRecord(entry)) return ' must be an object';
  if (entry.identifier !== identifier) {
    return `.identifier must equal its key, found ${JSON.stringify(entry.identifier)}`;
  }
  if (entry.kind === 'update') return findPendingUpdateProblem(entry);
  if (entry.kind !== undefined)
    return `.kind must be "update" or absent, found ${JSON.stringify(entry.kind)}`;
  const lookups = entry.lookupIdentifiers;
  if (!Array.isArray(lookups) || !lookups.every((l) => typeof l === 'string' && l !== '')) {
    return '.lookupIdentifiers must be an array of identifiers';
  }
  if (typeof entry.name !== 'string') return '.name must be a string';
  if (typeof entry.hash !== 'string' || !HASH.test(entry.hash)) {
    return `.hash must be "sha256:" and 64 lower-case hex digits, found ${JSON.stringify(entry.hash)}`;
  }
  if (typeof entry.idempotencyKey !== 'string' || entry.idempotencyKey === '') {
    return '.idempotencyKey must be a non-empty string';
  }
  if (!isTimestamp(entry.startedAt)) return '.startedAt must be an ISO timestamp';
  return undefined;
}

/** An update's journal entry: the id it was sent to, the hash it writes, when it started. */
function findPendingUpdateProblem(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.id !== 'string' || !OBJECT_ID.test(entry.id)) {
    return `.id must be a 24-character lower-case hex id, found ${JSON.stringify(entry.id)}`;
  }
  if (typeof entry.hash !== 'string' || !HASH.test(entry.hash)) {
    return `.hash must be "sha256:" and 64 lower-case hex digits, found ${JSON.stringify(entry.hash)}`;
  }
  if (!isTimestamp(entry.startedAt)) return '.startedAt must be an ISO timestamp';
  return undefined;
}

function corrupt(problem: string): StateCheck {
  return { kind: 'corrupt', problem };
}

function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}
