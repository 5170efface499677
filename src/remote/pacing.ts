/**
 * Client-side pacing: GCRA, the token bucket expressed as "theoretical arrival time". `burst` requests may start
 * at once, then one every 1/rate s. Slots are reserved synchronously, so concurrent callers never share one.
 */
export class Pacing {
  #intervalMs = 0;
  #toleranceMs = 0;
  /** When the next request would be due if requests were perfectly spaced. */
  #theoreticalArrival = 0;

  constructor(requestsPerSecond: number, burst?: number) {
    this.set(requestsPerSecond, burst);
  }

  /** 0 turns pacing off. `burst` defaults to one second's worth. Reservations already made keep their time. */
  set(requestsPerSecond: number, burst?: number): void {
    this.#intervalMs = requestsPerSecond > 0 ? 1000 / requestsPerSecond : 0;
    const size = Math.max(1, Math.floor(burst ?? Math.max(1, requestsPerSecond)));
    this.#toleranceMs = (size - 1) * this.#intervalMs;
  }

  get requestsPerSecond(): number {
    return this.#intervalMs > 0 ? 1000 / this.#intervalMs : 0;
  }

  /** Reserve the next slot; returns how long to wait for it (0: go now). */
  reserve(now: number): number {
    if (this.#intervalMs === 0) return 0;
    const arrival = Math.max(this.#theoreticalArrival, now);
    const startAt = arrival - this.#toleranceMs;
    this.#theoreticalArrival = arrival + this.#intervalMs;
    return startAt > now ? Math.ceil(startAt - now) : 0;
  }
}
