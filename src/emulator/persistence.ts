import { readProjectText } from '../definitions/read-capped.js';
import { WfsyncError } from '../errors.js';
import { BoundaryError, workingBoundary } from '../fs-boundary.js';
import { isRecord, JsonTooDeepError, parseJson } from '../json.js';
import { writeFileAtomically } from '../state/atomic-write.js';
import { OBJECT_ID } from '../state/check.js';
import type { EnvironmentIdentity } from './build-workflow.js';
import type { StoredChange } from './changes.js';
import type { NotificationGroupDoc } from './environments.js';
import type { StoredIdempotencyEntry } from './idempotency.js';
import type { StoredWorkflow } from './types.js';

/**
 * `--data <file>`: what the emulator stored, so a restart finds it again. JSON `{version: 1, identity, workflows,
 * idempotency, changes?, production?}` (the last two were added within version 1: a file without them still reads);
 * the API key is never written. Writes are atomic (temp file + fsync + rename) and serialized.
 */
export interface EmulatorData {
  version: 1;
  /** The environment's ids, kept so that a restart serves the same environment. */
  identity: EnvironmentIdentity;
  /** Both environments' workflows, deleted ones included. */
  workflows: StoredWorkflow[];
  idempotency: StoredIdempotencyEntry[];
  /** The changes log (promotion). */
  changes?: StoredChange[];
  /** Production's id and groups (its `General` and those promoted since). */
  production?: { environmentId: string; groups: NotificationGroupDoc[] };
}

const IDENTITY_KEYS = [
  'environmentId',
  'organizationId',
  'creatorId',
  'notificationGroupId',
  'layoutId',
] as const;

/** A data file past this size is not read (a workflow takes a few kilobytes). */
const MAX_DATA_BYTES = 256 * 1024 * 1024;

/**
 * The data file, or undefined when it does not exist yet. A file that is not ours is an error naming it. Read
 * through the project boundary, as the state file is: a link leading outside the project is refused unread.
 */
export async function readEmulatorData(file: string): Promise<EmulatorData | undefined> {
  let text: string;
  try {
    text = readProjectText(file, MAX_DATA_BYTES, workingBoundary());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof BoundaryError) throw new BoundaryError(`the emulator data file ${error.message}`);
    throw new WfsyncError(`cannot read the emulator data file ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    const what =
      error instanceof JsonTooDeepError ? error.message : `not valid JSON (${(error as Error).message})`;
    throw new WfsyncError(`the emulator data file ${file} is ${what}; fix or delete it`, { cause: error });
  }
  const problem = findProblem(parsed);
  if (problem !== undefined) {
    throw new WfsyncError(`the emulator data file ${file} is corrupted: ${problem}; fix or delete it`);
  }
  return parsed as EmulatorData;
}

function findProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return 'expected a JSON object';
  if (data.version !== 1) return `unsupported version ${JSON.stringify(data.version)} (expected 1)`;
  const identity = data.identity;
  if (!isRecord(identity)) return '"identity" must be an object';
  for (const key of IDENTITY_KEYS) {
    if (typeof identity[key] !== 'string' || !OBJECT_ID.test(identity[key]))
      return `identity.${key} must be an ObjectId`;
  }
  if (!Array.isArray(data.workflows)) return '"workflows" must be an array';
  for (const [i, w] of data.workflows.entries()) {
    if (!isRecord(w)) return `workflows[${i}] must be an object`;
    if (typeof w._id !== 'string' || !OBJECT_ID.test(w._id)) return `workflows[${i}]._id must be an ObjectId`;
    if (typeof w._environmentId !== 'string') return `workflows[${i}]._environmentId must be a string`;
    if (typeof w.name !== 'string') return `workflows[${i}].name must be a string`;
    if (!Array.isArray(w.steps)) return `workflows[${i}].steps must be an array`;
    if (
      !Array.isArray(w.triggers) ||
      !w.triggers.every((t) => isRecord(t) && typeof t.identifier === 'string')
    ) {
      return `workflows[${i}].triggers must be an array of triggers with an identifier`;
    }
  }
  if (data.changes !== undefined) {
    if (!Array.isArray(data.changes)) return '"changes" must be an array';
    for (const [i, c] of data.changes.entries()) {
      const fields =
        isRecord(c) && ['_id', '_entityId', '_environmentId', 'type'].every((k) => typeof c[k] === 'string');
      if (!fields || typeof c.enabled !== 'boolean' || !isRecord(c.item))
        return `changes[${i}] must be a change {_id, _entityId, _environmentId, type, enabled, item}`;
    }
  }
  const production = data.production;
  if (production !== undefined) {
    if (
      !isRecord(production) ||
      typeof production.environmentId !== 'string' ||
      !Array.isArray(production.groups)
    )
      return '"production" must be {environmentId, groups}';
  }
  if (!Array.isArray(data.idempotency)) return '"idempotency" must be an array';
  for (const [i, e] of data.idempotency.entries()) {
    if (
      !isRecord(e) ||
      typeof e.key !== 'string' ||
      typeof e.bodyHash !== 'string' ||
      typeof e.status !== 'number'
    ) {
      return `idempotency[${i}] must be {key, bodyHash, status, body}`;
    }
  }
  return undefined;
}

/** Every ObjectId the data holds, so a seeded restart never hands one out again. Recursive: the data was read by parseJson. */
export function objectIdsIn(data: EmulatorData | undefined): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (OBJECT_ID.test(value)) ids.add(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value)) Object.values(value).forEach(walk);
  };
  walk(data);
  return ids;
}

/**
 * Writes snapshots to `file` one after another, so a slow write can never land after a newer one. `write`
 * resolves when its snapshot is on disk; `flush` when every write queued so far has finished.
 */
export function dataFileWriter(file: string): {
  write(data: EmulatorData): Promise<void>;
  flush(): Promise<void>;
} {
  let queue: Promise<void> = Promise.resolve();
  return {
    write(data) {
      const text = `${JSON.stringify(data, null, 2)}\n`;
      const next = queue.then(() => writeFileAtomically(file, text, { mode: 0o600 }));
      // A failed write must not block later ones; the caller of this write still sees the failure.
      queue = next.catch(() => undefined);
      return next;
    },
    flush: () => queue,
  };
}
