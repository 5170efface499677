import type { Random } from './random.js';
import type { EarlyFault, FaultOptions, LateFault } from './types.js';

/**
 * Which failure, if any, a request meets. Every request the faults apply to draws the same six numbers in the
 * same order whatever is configured, so a seed replays the same faults for the same sequence of requests.
 */

export interface FaultPlan {
  early?: EarlyFault;
  late?: LateFault;
  latencyMs: number;
  slowBodyMs: number;
}

const NONE: FaultPlan = { latencyMs: 0, slowBodyMs: 0 };

export class FaultInjector {
  #faults: FaultOptions | undefined;
  #random: Random;
  #count = 0;

  constructor(random: Random, faults?: FaultOptions) {
    this.#random = random;
    this.set(faults);
  }

  set(faults: FaultOptions | undefined): void {
    this.#faults = faults === undefined ? undefined : checkFaults(faults);
  }

  /** Restart the burst counter (and, when given, the random stream). */
  reset(random?: Random): void {
    this.#count = 0;
    if (random !== undefined) this.#random = random;
  }

  plan(method: string): FaultPlan {
    const f = this.#faults;
    if (f === undefined) return NONE;
    if (f.only !== undefined && !(f.only as string[]).includes(method)) return NONE;
    const n = this.#count++;
    const [resetBefore, error, html, resetAfter, truncate, latency] = Array.from({ length: 6 }, () =>
      this.#random(),
    );
    const hit = (rate: number | undefined, draw: number | undefined): boolean =>
      rate !== undefined && draw! < rate;
    const burst = f.rateLimitBurst;
    let early: EarlyFault | undefined;
    if (hit(f.resetBeforeRate, resetBefore)) early = 'reset-before';
    else if (burst !== undefined && n % (burst.every + burst.count) >= burst.every)
      early = 'rate-limit-burst';
    else if (hit(f.errorRate, error)) early = 'error-500';
    else if (hit(f.htmlErrorRate, html)) early = 'html-502';
    let late: LateFault | undefined;
    if (hit(f.resetAfterRate, resetAfter)) late = 'reset-after';
    else if (hit(f.truncateBodyRate, truncate)) late = 'truncate-body';
    else if ((f.slowBodyMs ?? 0) > 0) late = 'slow-body';
    return {
      ...(early === undefined ? {} : { early }),
      ...(late === undefined ? {} : { late }),
      latencyMs: pickLatency(f.latencyMs, latency!),
      slowBodyMs: f.slowBodyMs ?? 0,
    };
  }
}

function pickLatency(latency: FaultOptions['latencyMs'], draw: number): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return latency;
  const [min, max] = latency;
  return Math.round(min + (max - min) * draw);
}

function checkFaults(faults: FaultOptions): FaultOptions {
  const rates = [
    'errorRate',
    'resetBeforeRate',
    'resetAfterRate',
    'truncateBodyRate',
    'htmlErrorRate',
  ] as const;
  for (const name of rates) {
    const rate = faults[name];
    if (rate !== undefined && !(rate >= 0 && rate <= 1))
      throw new RangeError(`faults.${name} must be within 0..1`);
  }
  const latency = faults.latencyMs;
  const latencies = latency === undefined ? [] : typeof latency === 'number' ? [latency] : latency;
  if (latencies.some((ms) => !(ms >= 0)) || (Array.isArray(latency) && latency[0] > latency[1])) {
    throw new RangeError('faults.latencyMs must be ≥ 0 (and min ≤ max)');
  }
  if (faults.slowBodyMs !== undefined && !(faults.slowBodyMs >= 0))
    throw new RangeError('faults.slowBodyMs must be ≥ 0');
  const burst = faults.rateLimitBurst;
  const wholeCount = (n: number): boolean => Number.isInteger(n) && n >= 0;
  if (
    burst !== undefined &&
    !(wholeCount(burst.every) && wholeCount(burst.count) && burst.every + burst.count > 0)
  ) {
    throw new RangeError('faults.rateLimitBurst needs whole numbers every ≥ 0 and count ≥ 0, not both 0');
  }
  return structuredClone(faults);
}
