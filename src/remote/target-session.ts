import { type ResolvedTarget, readApiKey } from '../config/target.js';
import { createClient } from './client.js';
import { chooseProxyRoute, describeRoute } from './proxy.js';
import { parseBaseUrl } from './transport.js';
import type { ClientEvent, ServiceClient } from './types.js';

/** The notification groups of one target: its default group and what `group:<name>` resolves to. */
export interface TargetGroups {
  /** The target's `notificationGroupId`, used by definitions that name no group. */
  defaultId?: string;
  /** `notificationGroups` of the target: name → 24-hex id. */
  named: Record<string, string>;
  /** Target name, only to word problems ("is not defined for target …"). */
  target?: string;
}

/** A target ready to talk to: the client, and for `local` the embedded emulator it runs. */
export interface TargetSession {
  target: ResolvedTarget;
  /** Base URL requests go to (the emulator's loopback URL for `local`). */
  baseUrl: string;
  /** How requests reach it, for `--verbose`: the proxy (credentials removed), or why none is used. */
  route: string;
  client: ServiceClient;
  /** How `notificationGroupId` references resolve on this target, for the given `group:<name>` names. */
  groups(referenced: readonly string[]): TargetGroups;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** The API key and the proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, either case) are read from it. */
  env: NodeJS.ProcessEnv;
  onClientEvent?: (event: ClientEvent) => void;
  /** Aborts requests in flight (a second Ctrl-C). */
  signal?: AbortSignal;
}

/** Open the target's client (the resolved target is the client's settings), starting the emulator for `local`. */
export async function openTargetSession(
  target: ResolvedTarget,
  options: SessionOptions,
): Promise<TargetSession> {
  const runtime = { onEvent: options.onClientEvent, signal: options.signal };
  if (target.kind === 'local') {
    // The embedded service: in-process, loopback, persisted so the next run sees what this one created. Loaded
    // only here: a remote run loads no emulator code (test/e2e/remote-loads-no-emulator.test.ts).
    const { startEmulator } = await import('../emulator/index.js');
    const emulator = await startEmulator({ ...(target.dataFile ? { dataFile: target.dataFile } : {}) });
    const client = createClient({
      ...target,
      ...runtime,
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      rateLimit: 0,
    });
    const defaultId = target.notificationGroupId ?? emulator.notificationGroupId;
    return {
      target,
      baseUrl: emulator.url,
      // Loopback and in-process: proxy settings never apply to it.
      route: describeRoute(new URL(emulator.url).origin, { type: 'direct', why: 'local' }),
      client,
      // Locally every group reference the target does not map lands in the emulator's default group.
      groups: (referenced) => ({
        target: target.name,
        defaultId,
        named: { ...Object.fromEntries(referenced.map((n) => [n, defaultId])), ...target.notificationGroups },
      }),
      close: async () => {
        await client.close();
        await emulator.close();
      },
    };
  }
  const baseUrl = target.baseUrl!;
  const apiKey = readApiKey(target, options.env);
  // Parsed once: its origin picks the route, and the client takes it as it is.
  const endpoint = parseBaseUrl(baseUrl, target.allowInsecureHttp);
  const { origin } = endpoint;
  const proxy = chooseProxyRoute(origin, options.env);
  const client = createClient({ ...target, ...runtime, baseUrl: endpoint, apiKey, proxy });
  return {
    target,
    baseUrl,
    route: describeRoute(origin, proxy),
    client,
    groups: () => ({
      target: target.name,
      ...(target.notificationGroupId ? { defaultId: target.notificationGroupId } : {}),
      named: target.notificationGroups,
    }),
    close: () => client.close(),
  };
}
