import { hash } from 'node:crypto';
import { badRequest, EmulatorHttpError } from './http-error.js';

/**
 * The service's `Idempotency-Key` handling on POST: the first request with a key is processed and its answer
 * (success or error) remembered; the same key with the same body replays that answer with `Idempotency-Replay:
 * true`; while the first is still in flight → 409 `Retry-After: 1`; with another body → 422. The body is compared
 * as parsed JSON (re-serialized), as the service hashes `JSON.stringify(body)`.
 */

export const IDEMPOTENCY_DOCS_LINK = 'https://docs.novu.co/additional-resources/idempotency';
const MAX_KEY_LENGTH = 255;

export interface StoredIdempotencyEntry {
  key: string;
  bodyHash: string;
  status: number;
  body: unknown;
}

export type IdempotencyDecision = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

type Entry = { state: 'in-flight'; bodyHash: string } | ({ state: 'done' } & StoredIdempotencyEntry);

export class IdempotencyRegistry {
  #entries = new Map<string, Entry>();

  constructor(stored: readonly StoredIdempotencyEntry[] = []) {
    for (const e of stored) this.#entries.set(e.key, { state: 'done', ...e });
  }

  /** Decide what to do with a POST carrying `key`; throws the 400/409/422 the service sends. */
  begin(key: string, body: unknown): IdempotencyDecision {
    if (key.length > MAX_KEY_LENGTH) {
      throw badRequest(
        `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`,
      );
    }
    const bodyHash = hash('sha256', JSON.stringify(body) ?? '', 'hex');
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#entries.set(key, { state: 'in-flight', bodyHash });
      return { kind: 'new' };
    }
    const keyHeader = { 'Idempotency-Key': key };
    if (entry.state === 'in-flight') {
      throw new EmulatorHttpError(
        409,
        `Request with key "${key}" is currently being processed. Please retry after 1 second`,
        { headers: { ...keyHeader, 'Retry-After': '1', Link: IDEMPOTENCY_DOCS_LINK } },
      );
    }
    if (entry.bodyHash !== bodyHash) {
      throw new EmulatorHttpError(422, `Request with key "${key}" is being reused for a different body`, {
        headers: { ...keyHeader, Link: IDEMPOTENCY_DOCS_LINK },
      });
    }
    return { kind: 'replay', status: entry.status, body: structuredClone(entry.body) };
  }

  /** Remember the answer to the first request with `key`. */
  complete(key: string, status: number, body: unknown): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.set(key, {
      state: 'done',
      key,
      bodyHash: entry.bodyHash,
      status,
      body: structuredClone(body),
    });
  }

  /** Forget an in-flight key whose request never reached the handler's answer (the client may retry it). */
  abandon(key: string): void {
    if (this.#entries.get(key)?.state === 'in-flight') this.#entries.delete(key);
  }

  /** Completed entries, for persistence. */
  stored(): StoredIdempotencyEntry[] {
    return [...this.#entries.values()].flatMap((e) =>
      e.state === 'done' ? [{ key: e.key, bodyHash: e.bodyHash, status: e.status, body: e.body }] : [],
    );
  }

  clear(): void {
    this.#entries.clear();
  }
}
