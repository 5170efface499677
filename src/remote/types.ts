import type { Dispatcher } from 'undici';
import type { EnvironmentResponse } from '../generated/environment-response.js';
import type { NotificationGroupListItem } from '../generated/notification-groups-response.js';
import type { WorkflowResponse } from '../generated/workflow-response.js';
import type { ProxyRoute } from './proxy.js';

export type { WorkflowResponse };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What the client reports for `--verbose` logs and progress. Never headers, never the API key. */
export interface ClientEvent {
  type: 'request' | 'response' | 'retry' | 'wait' | 'reconcile';
  method: HttpMethod;
  /** Request path as sent, including any base-URL prefix, e.g. `/v1/workflows/order-shipped`. */
  path: string;
  status?: number;
  /** 1-based attempt number of this operation. */
  attempt?: number;
  /** How long the client is about to wait (retry and wait events). */
  delayMs?: number;
  reason?: string;
}

/**
 * How to reach the service and how hard to try. The resolved target (config/target.ts `ResolvedTarget`) fits as it
 * is: `createClient({ ...target, baseUrl, apiKey })`. Unset settings take the defaults in client.ts (`DEFAULTS`).
 */
/** Where the service lives: the origin the pool connects to, and an optional path prefix (`''` or `/api`). */
export interface Endpoint {
  origin: string;
  basePath: string;
}

export interface ClientOptions {
  /**
   * https required; http only for loopback hosts (127.0.0.0/8, ::1, localhost) unless `allowInsecureHttp`. Or the
   * Endpoint parseBaseUrl already made of it, for a caller that needed its origin first (the target session).
   */
  baseUrl: string | Endpoint;
  /** Sent as `Authorization: ApiKey <key>`; never in any message, event or error. */
  apiKey: string;
  /** Name of the environment variable the key came from, for auth error messages (e.g. `NOVU_API_KEY`). */
  apiKeyEnv?: string;
  /**
   * For the advice in error messages: the target's name in wfsync.config.yaml (settings are then named
   * `targets.<name>.timeouts.headersMs`…), and where the base URL came from when not from that file
   * (`--base-url`, `WFSYNC_BASE_URL`). Without them messages say `baseUrl in wfsync.config.yaml`.
   */
  name?: string;
  baseUrlFrom?: string;
  allowInsecureHttp?: boolean;
  /**
   * connectMs: to open the connection; headersMs: from the start of an attempt until the response headers;
   * bodyMs: the whole body after the headers; commandMs: the whole command from the client's creation, after which
   * no request or retry starts or waits.
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; commandMs?: number };
  /**
   * Failures: maxAttempts per operation, full-jitter exponential backoff from baseDelayMs up to maxDelayMs (which
   * also caps Retry-After), and `budget`: total retries across the client. A 429 that says when to come back
   * (Retry-After or RateLimit-Reset) is not a failure: it is waited out as asked, counting against neither, until
   * the service has refused `rateLimitWaits` times in a row with no other answer in between; then the call fails
   * as `rate-limited`.
   */
  retries?: {
    maxAttempts?: number;
    baseDelayMs?: number;
    maxDelayMs?: number;
    budget?: number;
    rateLimitWaits?: number;
  };
  /**
   * Client-side pacing in requests per second. Unset: the service's advertised rate (RateLimit-Policy, else
   * RateLimit-Limit per second), evenly spaced, and 20/s (a second's worth at once) until it advertises one. A
   * number: that many per second, evenly spaced unless `burst` lets more start at once, whatever the service says;
   * 0: none. Either way the first request goes alone, and a 429 that says when to come back (Retry-After, else
   * RateLimit-Reset) holds every request until then.
   */
  rateLimit?: number;
  burst?: number;
  maxResponseBytes?: number;
  /**
   * How to reach baseUrl (proxy.ts `chooseProxyRoute`): through a proxy (CONNECT tunnels; its credentials go to
   * the proxy alone and are kept out of every message), else directly over the client's own pool.
   */
  proxy?: ProxyRoute;
  onEvent?: (event: ClientEvent) => void;
  /** For tests (undici MockAgent). Not closed by `close()`. Takes precedence over `proxy`. */
  dispatcher?: Dispatcher;
  /** Injectable for deterministic tests. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Cancellation (Ctrl-C). */
  signal?: AbortSignal;
}

export interface CreateOptions {
  /** Sent as `Idempotency-Key` on every attempt of this create (1–255 printable ASCII characters). */
  idempotencyKey: string;
  /** The trigger identifier the service will derive from the name: used to reconcile a lost response. */
  identifier: string;
  /**
   * Other identifiers the service might derive (the two server generations slug camelCase and snake_case
   * differently). Reconciliation looks each up too, so a lost response is never mistaken for "not created".
   */
  alternateIdentifiers?: readonly string[];
}

export interface CreateResult {
  workflow: WorkflowResponse;
  /** The response was lost and the workflow was found with a GET instead. */
  reconciled: boolean;
  /** The service answered with `Idempotency-Replay: true`: an earlier attempt had created it. */
  replayed: boolean;
  /** POSTs sent. */
  attempts: number;
}

export interface ServiceClient {
  createWorkflow(body: unknown, options: CreateOptions): Promise<CreateResult>;
  /**
   * `PUT /v1/workflows/{id}` with the whole body (plan/update-body.ts): the workflow as the service answers it.
   * Sent again only when the first attempt provably did nothing; else a RemoteError `outcome-unknown`.
   */
  updateWorkflow(id: string, body: Record<string, unknown>): Promise<WorkflowResponse>;
  /** `PUT /v1/workflows/{id}/status` with `{active}`: the workflow as the service answers it. As updateWorkflow. */
  setWorkflowStatus(id: string, active: boolean): Promise<WorkflowResponse>;
  /** `undefined` when the service answers 404 for this workflow. */
  getWorkflow(idOrIdentifier: string): Promise<WorkflowResponse | undefined>;
  /** `DELETE /v1/workflows/{id}` (a soft delete); resolves on `{data: true}`. Development keys only. */
  deleteWorkflow(id: string): Promise<void>;
  /**
   * `GET /v1/environments/me`: the key's environment, its `apiKeys` dropped on receipt. `undefined` when the
   * service has no such route (404: an older or different service).
   */
  getCurrentEnvironment(): Promise<CurrentEnvironment | undefined>;
  /** `GET /v1/notification-groups`: the key's environment's groups; `undefined` when the route is missing (404). */
  listNotificationGroups(): Promise<NotificationGroup[] | undefined>;
  /** `GET /v1/workflows?page&limit`, every page (bounded: remote/paging.ts): the key's environment's workflows. */
  listWorkflows(): Promise<ListedWorkflow[]>;
  /**
   * The trigger identifiers of every workflow in the key's environment, from one page of the list in one attempt;
   * `undefined` when that cannot prove a workflow absent (remote/listed-identifiers.ts). Optional: a client without
   * it is asked identifier by identifier.
   */
  listWorkflowIdentifiers?(): Promise<ReadonlySet<string> | undefined>;
  /** `GET /v1/changes?promoted=false`, every page (bounded): the pending top-level changes. */
  listPendingChanges(): Promise<ServiceChange[]>;
  /** `GET /v1/changes/count`: how many changes are pending. */
  countPendingChanges(): Promise<number>;
  /** `POST /v1/changes/{id}/apply` (Development key only): promote one change; the changes applied. */
  applyChange(changeId: string): Promise<ServiceChange[]>;
  /** `POST /v1/changes/bulk/apply`: promote several, oldest first; the service stops at the first failure. */
  applyChanges(changeIds: readonly string[]): Promise<ServiceChange[][]>;
  close(): Promise<void>;
}

/** One page of a paged list; `totalCount` when the service said it. */
export interface Page<T> {
  data: T[];
  totalCount?: number;
}

/** A change of the changes API, as far as wfsync keeps it. `_entityId`: the Development entity it is about. */
export interface ServiceChange {
  _id: string;
  _entityId: string;
  /** `NotificationTemplate` (a workflow), `Layout`, `NotificationGroup`, … */
  type: string;
  /** false while pending. */
  enabled: boolean;
  createdAt?: string;
}

/** A workflow as the paged list shows it, as far as wfsync keeps it: a Production copy names its source in `_parentId`. */
export interface ListedWorkflow {
  _id: string;
  _parentId?: string;
  identifier?: string;
}

/**
 * The key's environment, as far as wfsync keeps it (never the service's `apiKeys`). `_parentId` is set on an
 * environment derived from another (Production): only a root one may create workflows.
 */
export type CurrentEnvironment = Pick<
  EnvironmentResponse,
  '_id' | 'name' | '_organizationId' | 'identifier'
> & {
  _parentId?: string;
};

/** One notification group of the key's environment (`name` is text from the service). */
export type NotificationGroup = Pick<NotificationGroupListItem, '_id' | 'name'> & {
  /** A Production group: the Development group it was promoted from. */
  _parentId?: string;
};

/**
 * - `auth`: 401/403 (exit 4). `rate-limited`: still 429 when retries ran out (exit 5).
 * - `validation`: the service rejected the request (400/413/422; exit 3); `serverMessages` says why.
 * - `not-found`: the endpoint itself does not exist (wrong base URL); a missing workflow is not an error.
 * - `server`: 5xx after retries. `network`, `timeout`: the service could not be reached or did not answer in time.
 * - `protocol`: an answer that is not the service's JSON (HTML page, redirect, cut off, too large, bad shape).
 * - `outcome-unknown`: a create may or may not have happened; the user must look before trying again.
 * - `deadline`: the command's time ran out. `cancelled`: the user cancelled.
 */
export type RemoteErrorKind =
  | 'auth'
  | 'rate-limited'
  | 'validation'
  | 'not-found'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'outcome-unknown'
  | 'deadline'
  | 'cancelled';

/**
 * A 429 that said when to come back: `new` when the request was sent after the last such 429 arrived (the
 * service still refuses after being waited out), `ongoing` when it is one of a burst already being waited out.
 */
export type RateLimitWait = 'new' | 'ongoing';

/** What one attempt came to: the workflow, "absent" (GET 404), or a Problem. */
export type Outcome =
  | { type: 'ok'; workflow: WorkflowResponse; replayed: boolean }
  | { type: 'absent' }
  | { type: 'problem'; problem: Problem };

/** Something that went wrong with one attempt, and what it means for trying again. */
export interface Problem {
  /** The error kind if the client gives up here. */
  kind: RemoteErrorKind;
  /** The message after `METHOD path: `: what happened, starting with the status when there is one. */
  detail: string;
  /** What the user can do about it, shown after the detail (and after why the client stopped trying). */
  advice?: string;
  status?: number;
  serverMessages: string[];
  /** Sending the same request again may get a different answer. */
  transient: boolean;
  /** The service could not be reached at all (refused, DNS, unreachable, connect timeout, TLS): nothing was sent. */
  unreachable?: boolean;
  /** What a POST may have done on the service: `none` (known not applied), `unknown`, `applied` (201 seen). */
  effect: 'none' | 'unknown' | 'applied';
  /** How long the service asked us to wait (Retry-After, or RateLimit-Reset on a 429). */
  retryAfterMs?: number;
  /** Set by the client on a 429 with `retryAfterMs`: a wait of its own, or part of a burst already waited out. */
  rateLimitWait?: RateLimitWait;
  cause?: unknown;
}
