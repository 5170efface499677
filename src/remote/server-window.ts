/**
 * The service's RateLimit-Remaining/RateLimit-Reset turned into "may another request go now?", counting the
 * requests the service has not seen yet.
 *
 * The service is a token bucket refilled at fixed window boundaries (Upstash `tokenBucket`). An answer saying
 * `Remaining: r` counts every request that reached the service before it, but not the ones still on their way,
 * so a client that simply counts down from `r` overshoots by up to its concurrency. Instead each answer gives a
 * lower bound on how many requests may be sent in total: `r + a + 1`, where `a` is how many answers had arrived
 * before that request was sent (those reached the service before it did, and the `+ 1` is the request itself).
 * Every other request may still take a token, which is what makes the bound safe; it stays safe across
 * refills, which only add tokens, so the highest bound seen is the allowance.
 *
 * `Reset` is whole seconds rounded up, so `answered at + reset` is never before the window's true end (a safe
 * bound), and the smallest such bound over the window's answers is the tightest. When the policy names the
 * window's length, the next window ends one length after the last, which does not drift by a round trip per
 * window the way `answered at + reset` does. Once the bound has passed, one request (a probe) goes alone and
 * its answer gives the new window's count; the others follow at once. Should the bound be wrong after all, one
 * 429 is the cost. The same probe starts every run: until the first answer nothing is known of the limit.
 */

/** One request's place in the count, taken when it is let through. */
export interface Slot {
  readonly sentAt: number;
  /** Answers (or failures) that had arrived when it was let through: those reached the service before it. */
  readonly answeredBefore: number;
  /** The window it was sent in, and the lowest Remaining answered in that window by then. */
  readonly window: number;
  readonly lowestRemaining: number | undefined;
  /** Sent alone, to learn the service's count. */
  readonly probe: boolean;
  settled: boolean;
}

export type Decision =
  | { type: 'go'; probe: boolean }
  /** `until`: absolute time to wait for at most; undefined: until an answer arrives. */
  | { type: 'wait'; until: number | undefined; reason: string };

const FIRST_ANSWER = "waiting for a first answer to learn the service's rate limit";
const PROBE_ANSWER = 'waiting for the first answer of the rate-limit window';
const WINDOW_USED = 'RateLimit-Remaining is used up: waiting for the window to reset';

export class ServerWindow {
  #sent = 0;
  #answered = 0;
  /** Some answer has arrived (with or without rate-limit headers). */
  #heard = false;
  /** Requests that may be sent in total, or undefined when the service does not say (no gate then). */
  #allowance: number | undefined;
  #window = 0;
  /** A safe bound on the current window's end. */
  #resetAt: number | undefined;
  #lowestRemaining: number | undefined;
  /** The latest send time of a request answered in the current window: the window ends after it. */
  #latestSent: number | undefined;
  #probing = false;

  /** The service's counts are being followed. */
  get counting(): boolean {
    return this.#allowance !== undefined;
  }

  decide(now: number): Decision {
    if (!this.#heard) {
      return this.#probing ? { type: 'wait', until: undefined, reason: FIRST_ANSWER } : GO_PROBE;
    }
    if (this.#allowance === undefined || this.#allowance > this.#sent) return GO;
    if (this.#probing) return { type: 'wait', until: undefined, reason: PROBE_ANSWER };
    if (this.#resetAt === undefined || now >= this.#resetAt) return GO_PROBE;
    return { type: 'wait', until: this.#resetAt, reason: WINDOW_USED };
  }

  grant(now: number, probe: boolean): Slot {
    this.#sent++;
    if (probe) this.#probing = true;
    return {
      sentAt: now,
      answeredBefore: this.#answered,
      window: this.#window,
      lowestRemaining: this.#lowestRemaining,
      probe,
      settled: false,
    };
  }

  /**
   * The request ended. `answer`: it was answered (at `now`), with the service's count when the answer carried
   * one (`resetAt`: now + RateLimit-Reset; `windowMs`: the policy's window, when known). Without `answer` it
   * failed and may or may not have reached the service; the count treats it as having taken a token.
   */
  settle(
    slot: Slot,
    answer?: { now: number; count?: { remaining: number; resetAt: number; windowMs?: number } },
  ): void {
    if (slot.settled) return;
    slot.settled = true;
    this.#answered++;
    if (slot.probe) this.#probing = false;
    if (answer === undefined) return;
    this.#heard = true;
    const { count } = answer;
    if (count === undefined) {
      // A probe answered without a count: the service stopped counting, so stop gating on an old count.
      if (slot.probe) this.#allowance = undefined;
      return;
    }
    const { remaining, resetAt } = count;
    this.#allowance = Math.max(this.#allowance ?? 0, remaining + slot.answeredBefore + 1);
    const current = slot.window === this.#window;
    if (this.#resetAt === undefined || (current && this.#isLaterWindow(slot, remaining))) {
      const next = this.#nextWindowEnd(answer.now, count.windowMs);
      this.#window++;
      this.#resetAt = next === undefined ? resetAt : Math.min(resetAt, next);
      this.#lowestRemaining = remaining;
      this.#latestSent = slot.sentAt;
    } else if (current) {
      this.#resetAt = Math.min(this.#resetAt, resetAt);
      this.#lowestRemaining = Math.min(this.#lowestRemaining ?? remaining, remaining);
      this.#latestSent = Math.max(this.#latestSent ?? slot.sentAt, slot.sentAt);
    }
    // An answer to a request sent in an earlier window may describe that window: its reset says nothing here.
  }

  /**
   * The end of the window after the current one, when an answer at `now` shows that window has begun: the
   * current window ended at or before its bound and after every request answered in it was sent, so an answer
   * back within one window length of the latest of those (it was handled no later) belongs to the very next window.
   */
  #nextWindowEnd(now: number, windowMs: number | undefined): number | undefined {
    if (windowMs === undefined || this.#resetAt === undefined || this.#latestSent === undefined)
      return undefined;
    return now <= this.#latestSent + windowMs ? this.#resetAt + windowMs : undefined;
  }

  /**
   * Whether the request certainly reached the service after the current window ended: it was sent after the
   * window's (safe) end, or it found more tokens left than an answer that arrived before it was sent, which only
   * a refill explains.
   */
  #isLaterWindow(slot: Slot, remaining: number): boolean {
    if (this.#resetAt !== undefined && slot.sentAt >= this.#resetAt) return true;
    return slot.lowestRemaining !== undefined && remaining >= slot.lowestRemaining;
  }
}

const GO: Decision = { type: 'go', probe: false };
const GO_PROBE: Decision = { type: 'go', probe: true };
