import { Readable } from 'node:stream';
import { type Dispatcher, Pool } from 'undici';

/**
 * Virtual time that stands still while real I/O is under way. Like VirtualClock, `sleep` parks the caller and
 * the clock jumps to the earliest sleeper once everything else has run, but never while a `track`ed promise
 * (a real HTTP exchange with the emulator) is pending. So a request to the emulator takes no virtual time, the
 * emulator (given `now`) sees every request at the virtual instant it was sent, and a run with many requests in
 * flight is deterministic, whatever the machine's speed.
 */
export class NetClock {
  time = 1_700_000_000_000;
  #sleepers: Array<{ at: number; wake: () => void }> = [];
  #busy = 0;
  #scheduled = false;

  now = (): number => this.time;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper = { at: this.time + Math.max(0, ms), wake: resolve };
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
      this.#sleepers.push(sleeper);
      this.#schedule();
    });

  async track<T>(work: Promise<T>): Promise<T> {
    this.#busy++;
    try {
      return await work;
    } finally {
      this.#busy--;
      this.#schedule();
    }
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#busy > 0 || this.#sleepers.length === 0) return;
      const next = Math.min(...this.#sleepers.map((s) => s.at));
      this.time = Math.max(this.time, next);
      const due = this.#sleepers.filter((s) => s.at <= this.time);
      this.#sleepers = this.#sleepers.filter((s) => s.at > this.time);
      for (const s of due) s.wake();
      this.#schedule();
    });
  }
}

/**
 * A dispatcher for the client that sends each request to `origin` for real (tracked by `clock`, so it takes no
 * virtual time), then holds the answer for `latencyMs` of virtual time (a number, or drawn per request): the service's processing time, after
 * its rate limiter has counted the request. Only `request` is provided: it is all the client uses.
 */
export function latencyDispatcher(
  origin: string,
  clock: NetClock,
  latencyMs: number | (() => number),
): { dispatcher: Dispatcher; close: () => Promise<void> } {
  const pool = new Pool(origin, { connections: 64 });
  const request = async (options: Dispatcher.RequestOptions) => {
    const { statusCode, headers, body } = await clock.track(
      (async () => {
        const response = await pool.request(options);
        return { ...response, body: Buffer.from(await response.body.arrayBuffer()) };
      })(),
    );
    await clock.sleep(typeof latencyMs === 'number' ? latencyMs : latencyMs());
    return { statusCode, headers, trailers: {}, opaque: null, context: {}, body: Readable.from([body]) };
  };
  return { dispatcher: { request } as unknown as Dispatcher, close: () => pool.close() };
}
