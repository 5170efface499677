import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { redact } from './redact.js';
import { summarize } from './response-body.js';
import type { ClientOptions, HttpMethod, Problem, RemoteErrorKind } from './types.js';

const EXIT_CODES: Record<RemoteErrorKind, ExitCode> = {
  auth: ExitCode.Auth,
  'rate-limited': ExitCode.RateLimited,
  validation: ExitCode.Invalid,
  'not-found': ExitCode.Failure,
  server: ExitCode.Failure,
  network: ExitCode.Failure,
  timeout: ExitCode.Failure,
  protocol: ExitCode.Failure,
  'outcome-unknown': ExitCode.Failure,
  deadline: ExitCode.Failure,
  cancelled: ExitCode.Failure,
};

/** What a RemoteError is made of: a Problem's words, the call, and the text to keep out of it all. */
export type RemoteErrorInit = Pick<
  Problem,
  'kind' | 'status' | 'detail' | 'advice' | 'unreachable' | 'cause'
> & {
  method: HttpMethod;
  path: string;
  serverMessages?: readonly string[];
  /** Text to strip from the message, the server messages and the cause (the API key). */
  secrets: readonly string[];
};

/** A failed call to the service: which call, what happened, and what the service said. */
export class RemoteError extends WfsyncError {
  readonly kind: RemoteErrorKind;
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number | undefined;
  /** The message without `METHOD path: ` and without the advice. */
  readonly detail: string;
  /** What the user can do, when the client can tell; already part of the message. */
  readonly advice: string | undefined;
  /** The service's own messages (400/422 bodies), for the apply layer to turn into Diagnostics. */
  readonly serverMessages: readonly string[];
  /** The service could not be reached at all, after retries: every other request would fail the same way. */
  readonly unreachable: boolean;

  constructor(init: RemoteErrorInit) {
    const advice = init.advice === undefined ? '' : `; ${init.advice}`;
    const message = redact(`${init.method} ${init.path}: ${init.detail}${advice}`, init.secrets);
    const exitCode = EXIT_CODES[init.kind];
    super(message, {
      exitCode,
      ...(exitCode === ExitCode.Failure ? { code: init.kind === 'cancelled' ? 'aborted' : 'service' } : {}),
      cause: init.cause === undefined ? undefined : sanitizeCause(init.cause, init.secrets),
    });
    this.name = 'RemoteError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.detail = redact(init.detail, init.secrets);
    this.advice = init.advice === undefined ? undefined : redact(init.advice, init.secrets);
    this.serverMessages = (init.serverMessages ?? []).map((m) => redact(m, init.secrets));
    this.unreachable = init.unreachable === true;
  }
}

/**
 * A copy of a low-level error (undici, node:net) with the secrets stripped: the original could carry request
 * details, and `--verbose` prints causes.
 */
function sanitizeCause(cause: unknown, secrets: readonly string[]): Error {
  const original = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redact(original.message, secrets));
  copy.name = original.name;
  const code = (original as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = redact(original.stack ?? `${copy.name}: ${copy.message}`, secrets);
  return copy;
}

/**
 * Failures that end the whole command rather than one workflow: a rejected key or an exhausted rate limit fail
 * every later request the same way, and a cancelled or timed-out command must stop asking.
 */
const COMMAND_ENDING = ['auth', 'rate-limited', 'cancelled', 'deadline'] as const satisfies RemoteErrorKind[];

export function commandEndingKind(error: unknown): (typeof COMMAND_ENDING)[number] | undefined {
  return error instanceof RemoteError ? COMMAND_ENDING.find((kind) => kind === error.kind) : undefined;
}

export function endsCommand(error: unknown): boolean {
  return commandEndingKind(error) !== undefined;
}

/**
 * Where the user can change what a failure points at, for the "what to do" part of error messages. The client
 * does not read the config itself, so the caller says which target it serves and where its base URL came from.
 */
export type AdviceContext = Pick<ClientOptions, 'name' | 'baseUrlFrom' | 'apiKeyEnv'>;

const CONFIG_FILE = 'wfsync.config.yaml';

/** `timeouts.headersMs in wfsync.config.yaml`, or `targets.prod.timeouts.headersMs in …` when the target is known. */
export function setting(context: AdviceContext, name: string): string {
  const prefix = context.name === undefined ? '' : `targets.${context.name}.`;
  return `${prefix}${name} in ${CONFIG_FILE}`;
}

/** `check baseUrl in wfsync.config.yaml` (or the flag or variable it came from). */
export function checkBaseUrl(context: AdviceContext): string {
  return `check ${context.baseUrlFrom ?? setting(context, 'baseUrl')}`;
}

/** `$NOVU_API_KEY`, or `the API key` when the caller did not say where it came from. */
export function keyName(context: AdviceContext): string {
  return context.apiKeyEnv === undefined ? 'the API key' : `$${context.apiKeyEnv}`;
}

/** For answers that do not look like the service at all. */
export function notTheService(context: AdviceContext): string {
  return `${checkBaseUrl(context)}: is it the service's API root?`;
}

/** For a command that ran out of time. */
export function moreTime(context: AdviceContext): string {
  return `if the run needs more time, raise ${setting(context, 'timeouts.commandMs')}`;
}

/** For connections and bodies cut short in transit. */
export const IN_TRANSIT_ADVICE =
  'if this keeps happening, look for a proxy or firewall between wfsync and the service';

/** `30 s`, `0.2 s`. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** 401/403 in words, from what the service said. */
export function explainAuth(
  status: number,
  messages: readonly string[],
  context: AdviceContext,
): { detail: string; advice: string } {
  const said = messages.join(' ');
  const key = keyName(context);
  if (/Missing authorization header|Invalid authentication scheme/i.test(said)) {
    return {
      detail: `the service did not receive the API key (it said: ${said})`,
      advice: 'check that nothing between wfsync and the service drops or replaces the Authorization header',
    };
  }
  if (/API Key not found/i.test(said)) {
    const which = context.apiKeyEnv === undefined ? 'the API key' : `the API key in ${key}`;
    return {
      detail: `${which} was rejected`,
      advice: `check that ${key} holds a key of the environment this target syncs to`,
    };
  }
  if (/only allowed in Development environment/i.test(said)) {
    return {
      detail: 'creating workflows needs a Development-environment key, and this one belongs to Production',
      advice: `set ${key} to the Development environment's key`,
    };
  }
  return {
    detail: `${status === 403 ? 'access denied' : 'authentication failed'}${said === '' ? '' : `: ${summarize(messages)}`}`,
    advice: `check ${key}`,
  };
}
