import { type AdviceContext, checkBaseUrl, IN_TRANSIT_ADVICE, moreTime, seconds, setting } from './errors.js';
import type { ProxyInUse } from './proxy.js';
import type { FailureReason, TransportFailure } from './transport.js';
import type { Problem, RemoteErrorKind } from './types.js';

export interface FailureContext {
  timeouts: { connectMs: number; headersMs: number };
  /** `host[:port]`, as the user wrote it in the base URL. */
  host: string;
  advice: AdviceContext;
  /** Set when requests go through a proxy: connection failures are then the proxy's. */
  proxy?: ProxyInUse;
}

interface Said {
  detail: string;
  advice?: string;
}

interface Meaning {
  kind: RemoteErrorKind;
  say: (context: FailureContext, code: string | undefined) => Said;
  transient: boolean;
}

const NETWORK_ADVICE = "check this machine's network connection (VPN, proxy, firewall)";

/**
 * What each transport failure means, in plain words, and what the user can do. `effect` follows from `notSent`:
 * a request that never left this machine did nothing; anything else may have reached the service.
 */
const MEANINGS: Record<FailureReason, Meaning> = {
  refused: {
    kind: 'network',
    say: (c) => ({
      detail: `could not connect to ${c.host}: connection refused`,
      advice: `is the service up? ${checkBaseUrl(c.advice)}`,
    }),
    transient: true,
  },
  dns: {
    kind: 'network',
    say: (c, code) =>
      code === 'EAI_AGAIN'
        ? {
            detail: `DNS lookup failed for host ${hostname(c.host)} (the DNS server did not answer, EAI_AGAIN)`,
            advice: NETWORK_ADVICE,
          }
        : {
            detail: `DNS lookup failed for host ${hostname(c.host)}${inParentheses(code)}`,
            advice: `${checkBaseUrl(c.advice)} (is the host name right?)`,
          },
    transient: true,
  },
  unreachable: {
    kind: 'network',
    say: (c, code) => ({
      detail: `could not reach ${c.host}: ${code === 'EHOSTUNREACH' ? 'no route to the host' : 'the network is unreachable'}${inParentheses(code)}`,
      advice: NETWORK_ADVICE,
    }),
    transient: true,
  },
  'connect-timeout': {
    kind: 'timeout',
    say: (c) => ({
      detail: `timed out after ${seconds(c.timeouts.connectMs)} connecting to ${c.host}`,
      advice: `is the service up, and reachable from this machine (VPN, firewall)? ${checkBaseUrl(c.advice)}`,
    }),
    transient: true,
  },
  // Certificates do not fix themselves between attempts.
  tls: { kind: 'network', say: describeTls, transient: false },
  'headers-timeout': {
    kind: 'timeout',
    say: (c) => ({
      detail: `timed out after ${seconds(c.timeouts.headersMs)} waiting for response headers`,
      advice: `is the service up? if it is only slow, raise ${setting(c.advice, 'timeouts.headersMs')}`,
    }),
    transient: true,
  },
  reset: {
    kind: 'network',
    say: (c, code) => ({
      detail: `the connection to ${c.host} was ${closedHow(code)} before the response arrived${inParentheses(code)}`,
      advice: IN_TRANSIT_ADVICE,
    }),
    transient: true,
  },
  cancelled: {
    kind: 'cancelled',
    say: () => ({ detail: 'cancelled while waiting for the response' }),
    transient: false,
  },
  deadline: {
    kind: 'deadline',
    say: (c) => ({
      detail: "the command's deadline passed before the response arrived",
      advice: moreTime(c.advice),
    }),
    transient: false,
  },
  // Only through a proxy; worded by throughProxy.
  'proxy-refused': {
    kind: 'network',
    say: () => ({ detail: 'the proxy refused the tunnel' }),
    transient: false,
  },
};

/** What a transport failure means for retrying, and how to say it. */
export function interpretFailure(failure: TransportFailure, context: FailureContext): Problem {
  const meaning = MEANINGS[failure.reason];
  const viaProxy = context.proxy === undefined ? undefined : throughProxy(failure, context, context.proxy);
  const said = viaProxy ?? meaning.say(context, failure.code);
  return {
    kind: meaning.kind,
    detail: said.detail,
    ...(said.advice === undefined ? {} : { advice: said.advice }),
    serverMessages: [],
    transient: viaProxy?.transient ?? meaning.transient,
    effect: failure.notSent ? 'none' : 'unknown',
    ...(failure.notSent && meaning.kind !== 'cancelled' && meaning.kind !== 'deadline'
      ? { unreachable: true }
      : {}),
    cause: failure.cause,
  };
}

/**
 * A connection failure through a proxy is the proxy's: wfsync only ever dials the proxy, which dials the service
 * when asked to CONNECT. The proxy is named without credentials (ProxyInUse has none).
 */
function throughProxy(
  failure: TransportFailure,
  c: FailureContext,
  proxy: ProxyInUse,
): (Said & { transient?: boolean }) | undefined {
  const check = `check ${proxy.variable}`;
  const code = failure.code;
  switch (failure.reason) {
    case 'refused':
      return {
        detail: `could not connect to the proxy ${proxy.uri}: connection refused`,
        advice: `is the proxy up? ${check} (or list ${hostname(c.host)} in NO_PROXY to go direct)`,
      };
    case 'dns':
      return { detail: `DNS lookup failed for the proxy ${proxy.uri}${inParentheses(code)}`, advice: check };
    case 'unreachable':
      return { detail: `could not reach the proxy ${proxy.uri}${inParentheses(code)}`, advice: check };
    case 'connect-timeout':
      return {
        detail: `timed out after ${seconds(c.timeouts.connectMs)} connecting to ${c.host} through the proxy ${proxy.uri}`,
        advice: `is the proxy up, and reachable from this machine? ${check}`,
      };
    case 'proxy-refused':
      return refusedTunnel(failure.proxyStatus ?? 0, c, proxy);
    default:
      return undefined;
  }
}

function refusedTunnel(status: number, c: FailureContext, proxy: ProxyInUse): Said & { transient: boolean } {
  if (status === 407) {
    return proxy.authenticated
      ? {
          detail: `the proxy ${proxy.uri} rejected the credentials in ${proxy.variable} (407 Proxy Authentication Required)`,
          advice: `check the user name and password in ${proxy.variable}`,
          transient: false,
        }
      : {
          detail: `the proxy ${proxy.uri} requires authentication (407 Proxy Authentication Required)`,
          advice: `put the proxy's user name and password in ${proxy.variable} (http://user:password@host:port)`,
          transient: false,
        };
  }
  if (status >= 500) {
    return {
      detail: `the proxy ${proxy.uri} could not open a tunnel to ${c.host} (${status})`,
      advice: `is the service up? ${checkBaseUrl(c.advice)}`,
      transient: true,
    };
  }
  return {
    detail: `the proxy ${proxy.uri} refused to open a tunnel to ${c.host} (${status})`,
    advice: `ask whoever runs the proxy to allow CONNECT to ${c.host}, or list ${hostname(c.host)} in NO_PROXY`,
    transient: false,
  };
}

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

// What OpenSSL versions say when the other side answers in plain text (an http port).
const NOT_TLS = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_RECORD_LAYER_FAILURE',
  'EPROTO',
]);

function describeTls(c: FailureContext, code: string | undefined): Said {
  const failed = `the TLS handshake with ${c.host} failed`;
  const detail = (what: string) => `${failed}: ${what}${inParentheses(code)}`;
  if (code !== undefined && UNTRUSTED.has(code)) {
    return {
      detail: detail('its certificate is not signed by an authority this machine trusts'),
      advice: `${checkBaseUrl(c.advice)}; if the service (or a proxy on your network) uses a private CA, point NODE_EXTRA_CA_CERTS at its certificate`,
    };
  }
  if (code === 'CERT_HAS_EXPIRED') {
    return { detail: detail('its certificate has expired'), advice: 'tell whoever runs the service' };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return {
      detail: detail(`its certificate is not for ${hostname(c.host)}`),
      advice: `${checkBaseUrl(c.advice)}: use the host name the service's certificate names`,
    };
  }
  if (code !== undefined && NOT_TLS.has(code)) {
    return {
      detail: detail('the server did not answer in TLS'),
      advice: `is it a plain-http port? ${checkBaseUrl(c.advice)} (https:// or http://)`,
    };
  }
  return { detail: `${failed}${inParentheses(code)}`, advice: checkBaseUrl(c.advice) };
}

function closedHow(code: string | undefined): string {
  if (code === 'ECONNRESET') return 'reset';
  if (code === 'UND_ERR_SOCKET') return 'closed by the other side';
  return 'closed';
}

/** ` (ECONNRESET)`: system codes help a search; undici's own (`UND_ERR_SOCKET`) say nothing the words do not. */
function inParentheses(code: string | undefined): string {
  return code === undefined || code === '' || code.startsWith('UND_ERR') ? '' : ` (${code})`;
}

/** `api.example.com` from `api.example.com:8443`, `::1` from `[::1]:3000`. */
function hostname(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  if (bracketed !== null) return bracketed[1] ?? host;
  return host.replace(/:\d+$/, '');
}
