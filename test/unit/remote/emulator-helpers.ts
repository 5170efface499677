import { afterEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import {
  type ClientOptions,
  createClient,
  RemoteError,
  type ServiceClient,
} from '../../../src/remote/index.js';
import { recordEvents, VirtualClock } from '../../helpers/remote.js';
import { latencyDispatcher, NetClock } from './net-clock.js';

const running: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** An emulator on 127.0.0.1:0, closed after the test. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ seed: 7, ...options });
  running.push(emu);
  return emu;
}

/** A client for `emu` on virtual time (waits are recorded, not slept), closed after the test. */
export function clientFor(
  emu: RunningEmulator,
  options: Partial<ClientOptions> = {},
  clock = new VirtualClock(),
) {
  const recorder = recordEvents();
  const client: ServiceClient = createClient({
    baseUrl: emu.url,
    apiKey: emu.apiKey,
    apiKeyEnv: 'NOVU_API_KEY',
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...options,
    onEvent: (event) => {
      recorder.onEvent(event);
      options.onEvent?.(event);
    },
  });
  running.push(client);
  return { client, clock, events: recorder.events };
}

export function workflowBody(emu: RunningEmulator, name = 'Order Shipped'): Record<string, unknown> {
  return {
    name,
    notificationGroupId: emu.notificationGroupId,
    active: true,
    steps: [{ name: 'inbox', template: { type: 'in_app', content: 'Your order {{orderId}} has shipped' } }],
  };
}

let keyCounter = 0;
export function createOptions(identifier = 'order-shipped') {
  keyCounter++;
  return { idempotencyKey: `wfsync-test-${keyCounter}`, identifier };
}

export async function rejection(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a RemoteError, but the call succeeded');
    },
    (e: unknown) => e,
  );
  if (!(error instanceof RemoteError)) throw error;
  return error;
}

/**
 * An emulator and a client for it on a NetClock (net-clock.ts): virtual time stands still while a request is on the
 * wire, each taking `latencyMs`, so runs with concurrency are deterministic. Everything is closed after the test.
 */
export async function onNetClock(
  emulatorOptions: EmulatorOptions,
  options: Partial<ClientOptions> = {},
  latencyMs = 0,
) {
  const clock = new NetClock();
  const emu = await emulator({ clock: clock.now, ...emulatorOptions });
  const wire = latencyDispatcher(emu.url, clock, latencyMs);
  running.push({ close: wire.close });
  const { client, events } = clientFor(emu, {
    ...options,
    dispatcher: wire.dispatcher,
    now: clock.now,
    sleep: clock.sleep,
  });
  return { emu, client, clock, events };
}
