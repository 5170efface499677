import { randomInt } from 'node:crypto';

/** A source of numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: a tiny seeded PRNG, good enough to make faults and ids repeatable (not for secrets). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh 32-bit seed when the caller gave none. */
export function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}

/**
 * Independent streams derived from one seed, so that drawing an id never shifts which request gets a fault
 * (and adding a fault never changes the ids).
 */
export function createStreams(seed: number): Record<'ids' | 'suffixes' | 'faults', Random> {
  return {
    ids: mulberry32(seed ^ 0x1d5),
    suffixes: mulberry32(seed ^ 0x5f1c0),
    faults: mulberry32(seed ^ 0xfa017),
  };
}

/**
 * MongoDB ObjectIds: 24 lowercase hex. Real ones start with the creation time in seconds; here the first four
 * bytes come from `timeSeconds` (fixed per emulator when seeded, so ids are repeatable), then five random bytes
 * and a three-byte counter, as the driver does. Ids in `avoid` are never handed out.
 */
export function objectIdFactory(
  random: Random,
  timeSeconds: () => number,
  avoid: ReadonlySet<string> = new Set(),
): () => string {
  const processPart = pick(random, '0123456789abcdef', 10);
  let counter = Math.floor(random() * 0xffffff);
  const next = (): string => {
    counter = (counter + 1) % 0x1000000;
    const time = (Math.floor(timeSeconds()) >>> 0).toString(16).padStart(8, '0');
    return `${time}${processPart}${counter.toString(16).padStart(6, '0')}`;
  };
  return () => {
    let id = next();
    // A seeded restart on a data file replays the same sequence: skip what the file already holds.
    while (avoid.has(id)) id = next();
    return id;
  };
}

const SHORTID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';

/** What the older server appends on a collision: `shortid.generate()` (mixed case, `_` and `-` included). */
export function shortId(random: Random): string {
  return pick(random, SHORTID_ALPHABET, 9);
}

/** What the newer server appends: a short lower-case alphanumeric id, so the identifier stays a clean slug. */
export function shortSlugId(random: Random): string {
  return pick(random, LOWER_ALPHANUMERIC, 6);
}

function pick(random: Random, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}
