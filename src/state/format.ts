import { compareText } from '../text.js';
import type { PendingWrite, StateEntry, StateFile } from './types.js';

/** The state of a target nothing has been recorded for yet. The base URL is stored normalized, without credentials. */
export function emptyState(target: string, baseUrl: string): StateFile {
  return { version: 1, target, baseUrl: normalizeStateBaseUrl(baseUrl), workflows: {}, pending: {} };
}

/**
 * The base URL as a state file records it: without user info (a credential must never reach a file a team may
 * commit), without a trailing `/` or `/v1` (the client adds `/v1` itself, so `https://api.x.io/v1/` and
 * `https://api.x.io` are the same service and must not make the state file look foreign).
 */
export function normalizeStateBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed.replace(/\/+$/, '');
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  // Non-http schemes (the local target's `embedded:local`) have an opaque origin: keep scheme and host as written.
  const origin = url.origin === 'null' ? `${url.protocol}${url.host ? `//${url.host}` : ''}` : url.origin;
  return `${origin}${path}`;
}

/**
 * The file's text: 2-space JSON, identifiers sorted and fields in a fixed order, trailing newline, so that a team
 * committing it gets one-line diffs per change.
 */
export function serializeState(state: StateFile): string {
  const ordered = {
    version: state.version,
    target: state.target,
    baseUrl: state.baseUrl,
    workflows: sortedRecord(state.workflows, orderEntry),
    pending: sortedRecord(state.pending, orderPending),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** The known fields only, in the file's order. */
export function orderEntry(entry: StateEntry): StateEntry {
  return {
    id: entry.id,
    hash: entry.hash,
    origin: entry.origin,
    ...(entry.file === undefined ? {} : { file: entry.file }),
    ...(entry.remoteVersion === undefined ? {} : { remoteVersion: entry.remoteVersion }),
    recordedAt: entry.recordedAt,
  };
}

export function orderPending(entry: PendingWrite): PendingWrite {
  if (entry.kind === 'update') {
    const { identifier, id, hash, startedAt } = entry;
    return { kind: 'update', identifier, id, hash, startedAt };
  }
  return {
    identifier: entry.identifier,
    lookupIdentifiers: [...entry.lookupIdentifiers],
    name: entry.name,
    hash: entry.hash,
    idempotencyKey: entry.idempotencyKey,
    startedAt: entry.startedAt,
  };
}

/** Keys sorted by code unit (not locale): the same order on every machine. */
function sortedRecord<T>(record: Record<string, T>, order: (value: T) => T): Record<string, T> {
  // fromEntries defines own properties: an identifier like `__proto__` stays data, never a prototype.
  return Object.fromEntries(
    Object.entries(record)
      .sort(([a], [b]) => compareText(a, b))
      .map(([key, value]) => [key, order(value)]),
  );
}
