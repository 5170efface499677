import { afterEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';

/** Emulators started by a test are closed after it, whatever happened. */
const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep into JSON bodies
  body: any;
  text: string;
}

export interface CallOptions {
  key?: string | null;
  authorization?: string;
  headers?: Record<string, string>;
  /** Raw body text; otherwise `json` is serialized. */
  raw?: string;
  json?: unknown;
  contentType?: string | null;
}

/** One HTTP call; `key: null` sends no Authorization header. */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.key !== null) headers.authorization = `ApiKey ${options.key ?? emulator.apiKey}`;
  const body = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  if (body !== undefined && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${emulator.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export const post = (emulator: RunningEmulator, json: unknown, options: CallOptions = {}): Promise<Reply> =>
  call(emulator, 'POST', '/v1/workflows', { json, ...options });

export const get = (emulator: RunningEmulator, id: string, options: CallOptions = {}): Promise<Reply> =>
  call(emulator, 'GET', `/v1/workflows/${encodeURIComponent(id)}`, options);

/** A valid body: an in-app step using two variables. */
export function workflowBody(emulator: RunningEmulator, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Order Shipped',
    notificationGroupId: emulator.notificationGroupId,
    steps: [{ template: { type: 'in_app', content: 'Hi {{firstName}}, order {{orderId}} shipped' } }],
    ...overrides,
  };
}
