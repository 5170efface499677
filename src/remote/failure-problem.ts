import { type Problem, seconds } from './interpret.js';
import type { RemoteErrorKind } from './remote-error.js';
import type { FailureReason, TransportFailure } from './transport.js';

export interface FailureContext {
  connectMs: number;
  headersMs: number;
  host: string;
}

interface Meaning {
  kind: RemoteErrorKind;
  detail: (context: FailureContext, code: string) => string;
  transient: boolean;
}

/**
 * What each transport failure means. `effect` follows from `notSent`: a request that never left this machine did
 * nothing; anything else may have reached the service.
 */
const MEANINGS: Record<FailureReason, Meaning> = {
  refused: {
    kind: 'network',
    detail: (c) => `could not connect to ${c.host}: connection refused (is the service running?)`,
    transient: true,
  },
  dns: {
    kind: 'network',
    detail: (c, code) => `could not resolve the host name ${c.host}${code}`,
    transient: true,
  },
  unreachable: {
    kind: 'network',
    detail: (c, code) => `could not reach ${c.host}: the network or host is unreachable${code}`,
    transient: true,
  },
  'connect-timeout': {
    kind: 'timeout',
    detail: (c) => `could not connect to ${c.host} within ${seconds(c.connectMs)}`,
    transient: true,
  },
  // Certificates do not fix themselves between attempts.
  tls: {
    kind: 'network',
    detail: (c, code) =>
      `the TLS handshake with ${c.host} failed${code}: check the base URL and the server's certificate`,
    transient: false,
  },
  'headers-timeout': {
    kind: 'timeout',
    detail: (c) => `no response within ${seconds(c.headersMs)}`,
    transient: true,
  },
  reset: {
    kind: 'network',
    detail: (_c, code) => `the connection was closed before a response arrived${code}`,
    transient: true,
  },
  cancelled: {
    kind: 'cancelled',
    detail: () => 'cancelled while waiting for the response',
    transient: false,
  },
  deadline: {
    kind: 'deadline',
    detail: () => "the command's deadline passed before the response arrived",
    transient: false,
  },
};

/** What a transport failure means for retrying, and how to say it. */
export function interpretFailure(failure: TransportFailure, context: FailureContext): Problem {
  const meaning = MEANINGS[failure.reason];
  const code = (failure.cause as { code?: unknown } | null)?.code;
  return {
    kind: meaning.kind,
    detail: meaning.detail(context, typeof code === 'string' && code !== '' ? ` (${code})` : ''),
    serverMessages: [],
    transient: meaning.transient,
    effect: failure.notSent ? 'none' : 'unknown',
    cause: failure.cause,
  };
}
