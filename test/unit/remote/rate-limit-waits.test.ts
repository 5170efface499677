import { describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { VirtualClock } from '../../helpers/remote.js';
import {
  clientFor,
  createOptions,
  emulator,
  onNetClock,
  rejection,
  workflowBody,
} from './emulator-helpers.js';

/** The client against the emulator's rate limiting: pacing, 429 waits and when they end the run. */

const FOREVER: EmulatorOptions = { faults: { rateLimitBurst: { every: 0, count: 1 } } };

describe('rate limits against the emulator', () => {
  it('waits out a 429 burst as Retry-After says, then succeeds, using no failure retries', async () => {
    const emu = await emulator({ faults: { rateLimitBurst: { every: 1, count: 2 } } });
    const { client, clock, events } = clientFor(emu, {
      rateLimit: 0,
      retries: { maxAttempts: 1, budget: 0 },
    });
    await client.createWorkflow(workflowBody(emu), createOptions());
    const found = await client.getWorkflow('order-shipped');
    expect(found?.name).toBe('Order Shipped');
    expect(emu.requests().map((r) => r.status)).toEqual([201, 429, 429, 200]);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => [e.status, e.delayMs])).toEqual([
      [429, 1000],
      [429, 1000],
    ]);
    expect(clock.delays.filter((d) => d >= 1000)).toHaveLength(2);
  });

  it('429 forever ends as rate-limited (exit 5) after rateLimitWaits waits in a row', async () => {
    const emu = await emulator(FOREVER);
    const { client, clock } = clientFor(emu, { retries: { maxAttempts: 10, rateLimitWaits: 3 } });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('rate-limited');
    expect(error.exitCode).toBe(ExitCode.RateLimited);
    expect(error.message).toBe(
      'GET /v1/workflows/order-shipped: 429 rate limited: API rate limit exceeded (still refused after waiting as asked 3 times in a row); wait a minute before running again, or lower rateLimit in wfsync.config.yaml',
    );
    expect(emu.requests()).toHaveLength(4);
    expect(clock.delays.filter((d) => d === 1000)).toHaveLength(3);
    // The streak is the client's: the next call, refused at once, gets no more waits.
    await rejection(client.getWorkflow('other'));
    expect(emu.requests()).toHaveLength(5);
  });

  it('any other answer ends a streak of waits', async () => {
    // Every other request is refused: five calls meet a 429 each, five waits in all, but never two in a row.
    const emu = await emulator({ faults: { rateLimitBurst: { every: 1, count: 1 } } });
    const { client } = clientFor(emu, { retries: { rateLimitWaits: 1 } });
    for (let i = 0; i < 6; i++) expect(await client.getWorkflow(`workflow-${i}`)).toBeUndefined();
    expect(emu.requests().map((r) => r.status)).toEqual([404, ...Array(5).fill([429, 404]).flat()]);
  });

  it('429s that come back together count as one wait', async () => {
    const { emu, client } = await onNetClock(FOREVER, {
      rateLimit: 0,
      retries: { rateLimitWaits: 2 },
    });
    const calls = Array.from({ length: 8 }, (_, i) => rejection(client.getWorkflow(`workflow-${i}`)));
    const errors = await Promise.all(calls);
    expect(errors.every((e) => e.kind === 'rate-limited')).toBe(true);
    // The first request alone (wait 1), then all 8 together twice: waits 2 and 3, the third one too many.
    expect(emu.requests()).toHaveLength(1 + 8 + 8);
  });

  it('the deadline ends rate-limit waits', async () => {
    const clock = new VirtualClock();
    const emu = await emulator(FOREVER);
    const { client } = clientFor(emu, { timeouts: { commandMs: 2500 } }, clock);
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('deadline');
    expect(error.detail).toMatch(/^the command's deadline would pass during the next wait of 1 s/);
    expect(emu.requests()).toHaveLength(3);
  });

  it('paces at the service’s advertised rate, so requests one after another never meet a 429', async () => {
    const clock = new VirtualClock();
    const emu = await emulator({ clock: clock.now, rateLimit: { limit: 2, windowSeconds: 1 } });
    const { client, events } = clientFor(emu, {}, clock);
    for (let i = 0; i < 7; i++) await client.getWorkflow(`workflow-${i}`);
    expect(emu.requests().map((r) => r.status)).toEqual(Array(7).fill(404));
    expect(events.filter((e) => e.type === 'wait').length).toBeGreaterThanOrEqual(2);
  });

  it('caps its own request rate across concurrent callers', async () => {
    const starts: number[] = [];
    const { emu, client, clock } = await onNetClock(
      {},
      {
        rateLimit: 5,
        burst: 2,
        onEvent: (event) => {
          if (event.type === 'request') starts.push(clock.now());
        },
      },
    );
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getWorkflow(`wf-${i}`)));
    expect(emu.requests()).toHaveLength(12);
    // In any second: the burst of 2, plus one every 200 ms after it.
    const busiest = Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(6);
    // One every 200 ms, and 2% to spare for the network's jitter.
    expect(Math.max(...starts) - Math.min(...starts)).toBe(10 * 204);
  });
});
