import type { Dispatcher } from 'undici';
import type { WorkflowResponse } from '../generated/workflow-response.js';

export type { WorkflowResponse };

export type HttpMethod = 'GET' | 'POST';

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

export interface ClientOptions {
  /** https required; http only for loopback hosts (127.0.0.0/8, ::1, localhost) unless `allowInsecureHttp`. */
  baseUrl: string;
  /** Sent as `Authorization: ApiKey <key>`; never in any message, event or error. */
  apiKey: string;
  /** Name of the environment variable the key came from, for auth error messages (e.g. `NOVU_API_KEY`). */
  apiKeyEnv?: string;
  /**
   * For the advice in error messages: the target's name in wfsync.config.yaml (settings are then named
   * `targets.<name>.timeouts.headersMs`…), and where the base URL came from when not from that file
   * (`--base-url`, `WFSYNC_BASE_URL`). Without them messages say `baseUrl in wfsync.config.yaml`.
   */
  targetName?: string;
  baseUrlFrom?: string;
  allowInsecureHttp?: boolean;
  /**
   * connectMs: to open the connection (default 10 s); headersMs: from the start of an attempt until the response
   * headers (default 30 s); bodyMs: the whole body after the headers (default 30 s).
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Absolute ms epoch for the whole command: no request or retry starts or waits past it. */
  deadline?: number;
  /**
   * Failures: maxAttempts per operation (default 4), full-jitter exponential backoff from baseDelayMs (default
   * 500) up to maxDelayMs (default 30 s, also caps Retry-After), and `budget`: total retries across the client
   * (default 30). A 429 that says when to come back (Retry-After or RateLimit-Reset) is not a failure: it is
   * waited out as asked, counting against neither, until the service has refused `rateLimitWaits` times in a
   * row (default 10) with no other answer in between; then the call fails as `rate-limited`.
   */
  retry?: {
    maxAttempts?: number;
    baseDelayMs?: number;
    maxDelayMs?: number;
    budget?: number;
    rateLimitWaits?: number;
  };
  /**
   * Client-side pacing. Unset: the service's advertised rate (RateLimit-Policy, else RateLimit-Limit per second),
   * 20 requests/s until it advertises one. A number: that many per second (burst: one second's worth unless
   * given), whatever the service says; 0: none. Either way the client follows the service's RateLimit-Remaining
   * and RateLimit-Reset, counting its requests in flight, and the first request goes alone to learn them.
   */
  rateLimit?: { requestsPerSecond?: number; burst?: number };
  /** Default 10 MiB. */
  maxResponseBytes?: number;
  onEvent?: (event: ClientEvent) => void;
  /** For tests (undici MockAgent). Not closed by `close()`. */
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
  /** `undefined` when the service answers 404 for this workflow. */
  getWorkflow(idOrIdentifier: string): Promise<WorkflowResponse | undefined>;
  close(): Promise<void>;
}
