import type { WorkflowResponse } from '../generated/workflow-response.js';

/**
 * Public types of the local emulator of the service's workflow API: the two operations, the writing routes, promotion
 * and the read-only routes about the key's environment.
 */

export interface EmulatorOptions {
  /** Default 127.0.0.1. Loopback only: anything else is refused. */
  host?: string;
  /** Default 0: pick a free port. */
  port?: number;
  /** Default: generated (`wfs_local_` + 32 hex). */
  apiKey?: string;
  /**
   * Keys of the Production environment (derived from Development): create, delete and status → 401, apply → 404;
   * GET, the list and PUT see that environment (what promotion put there), `GET /v1/environments/me` says
   * `Production`.
   */
  productionKeys?: string[];
  /** More keys of the Development environment besides `apiKey` (listed with it in `apiKeys` of its environment). */
  developmentKeys?: string[];
  /**
   * Notification groups of the Development environment besides its default `General` (`notificationGroupId`):
   * what `GET /v1/notification-groups` lists. `id` defaults to a generated one. Creates never check that a group
   * exists (the service does not).
   */
  notificationGroups?: Array<{ name: string; id?: string }>;
  /** Optional persistence: loaded at start, written atomically (temp + fsync + rename) after each create. */
  dataFile?: string;
  /**
   * Which server generation to play. `v1` (default): the older server: `slugify {lower, strict}` identifiers and a
   * silent `-<shortid>` suffix on collision. `v2`: the newer server: decamelized identifiers, two suffixed tries then
   * 400, and the newer DTO bounds (name 1–128, description ≤ 256, ≤ 20 steps, unique tags of 1–64 characters).
   */
  slugGeneration?: 'v1' | 'v2';
  /** Default true: `Idempotency-Key` replay / 409 / 422. */
  idempotency?: boolean;
  /**
   * Default false. The service's token bucket: `limit × windowSeconds` tokens (the window's quota) refilled at every
   * window boundary, holding `burst`; headers `RateLimit-Limit: <quota>`, `RateLimit-Policy: <quota>;w=<s>;burst=…`.
   */
  rateLimit?: false | RateLimitOptions;
  faults?: FaultOptions;
  /** Makes faults, ObjectIds and identifier suffixes deterministic (the generated API key stays crypto-random). */
  seed?: number;
  /** ms since the epoch; default Date.now. Drives timestamps and the rate limiter. */
  clock?: () => number;
  /** Called once per request when it has been answered (or its socket destroyed), e.g. to log it. */
  onRequest?: (record: RequestRecord) => void;
}

export interface RateLimitOptions {
  /** Requests per second, as the service's plans state it (free tier: 30). */
  limit: number;
  /** Seconds between refills (the service: 5). */
  windowSeconds: number;
  /** Bucket size: the quota plus the burst allowance (free tier: 165); default the quota, `limit × windowSeconds`. */
  burst?: number;
}

export interface FaultOptions {
  /** Processing time added before the handler runs (a fixed value or a uniform range). */
  latencyMs?: number | [min: number, max: number];
  /** 0..1 chance of 500 `{statusCode, timestamp, path, message, errorId}` (nothing stored). */
  errorRate?: number;
  /** Destroy the socket before processing: nothing is stored. */
  resetBeforeRate?: number;
  /** Process (store the write) then destroy the socket: the lost-response case. */
  resetAfterRate?: number;
  /** Send the headers, then dribble the body over this long. */
  slowBodyMs?: number;
  /** After every `every` requests, answer the next `count` with 429. */
  rateLimitBurst?: { every: number; count: number };
  /** A proxy's truncated body: the response is processed, but only part of its body arrives. */
  truncateBodyRate?: number;
  /** A proxy's HTML 502 page instead of the service's answer (nothing stored). */
  htmlErrorRate?: number;
  /** Apply faults only to these methods (default: all). */
  only?: Array<'POST' | 'GET' | 'PUT' | 'DELETE'>;
}

/** A change as the changes API shows it (`enabled` false while pending). */
export interface PendingChange {
  _id: string;
  _entityId: string;
  type: string;
  enabled: boolean;
  change: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A workflow as GET returns it (the full document). */
export type StoredWorkflow = WorkflowResponse & { id: string; _environmentId: string; createdAt: string };

export interface RequestRecord {
  method: string;
  /** Request target as sent (path and query). */
  path: string;
  /** Status sent, or 0 when the socket was destroyed before any answer. */
  status: number;
  idempotencyKey?: string;
  /** ISO 8601 time the request arrived (emulator clock). */
  time: string;
  /** The fault injected into this request, if any. */
  fault?: FaultKind;
}

/** Faults that answer instead of the service (nothing is processed). */
export type EarlyFault = 'reset-before' | 'rate-limit-burst' | 'error-500' | 'html-502';
/** Faults that hit the service's answer after it was processed. */
export type LateFault = 'reset-after' | 'truncate-body' | 'slow-body';
export type FaultKind = EarlyFault | LateFault;

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  apiKey: string;
  /** The environment's default notification group ("General"), to use as `notificationGroupId`. */
  notificationGroupId: string;
  /** The Development environment's groups, `General` first, then `options.notificationGroups`. */
  notificationGroups: Array<{ id: string; name: string }>;
  environmentId: string;
  close(): Promise<void>;
  /** The live workflows of the Development environment, oldest first (full documents as GET returns them). */
  workflows(): StoredWorkflow[];
  /** The live workflows of the Production environment (promoted copies), oldest first. */
  productionWorkflows(): StoredWorkflow[];
  /** Development's pending top-level changes, newest first, as `GET /v1/changes?promoted=false` lists them. */
  pendingChanges(): PendingChange[];
  /** Every request answered so far, oldest first. Never holds the Authorization header. */
  requests(): RequestRecord[];
  setFaults(faults: FaultOptions | undefined): void;
  /**
   * For tests: simulate an edit made in the dashboard. `mutate` changes a copy of the Development environment's
   * workflow (by `_id` or trigger identifier, as GET looks it up); `_id` and `_environmentId` are kept, `updatedAt`
   * is set to now and `__v` bumped, as the service's update does, and the edit folds into the workflow's pending
   * change. Returns the stored result (and persists it).
   * Throws when there is no such workflow.
   */
  editWorkflow(idOrIdentifier: string, mutate: (workflow: StoredWorkflow) => void): StoredWorkflow;
  /**
   * Forget workflows, changes, promoted groups, idempotency keys, rate-limit state, requests and fault counters (and
   * persist that).
   */
  reset(): void;
}
