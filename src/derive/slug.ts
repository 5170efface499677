/**
 * The trigger identifier the service derives from a workflow's name. The two server generations differ on camelCase
 * and snake_case names; lower-case words separated by spaces slug the same on both.
 */
import { createRequire } from 'node:module';
import type decamelizingSlugify from '@sindresorhus/slugify';
import type slugify from 'slugify';
import { fastSlugV1, fastSlugV2 } from './slug-fast.js';

// The libraries are loaded on first use: with the ASCII fast paths most runs never call them, and loading
// @sindresorhus/slugify builds its transliteration patterns for every locale (~17 ms of every start-up, on each
// worker thread too). `require` of an ES module is synchronous on the Node versions `engines` allows (>=20.19).
const require = createRequire(import.meta.url);
let v1Library: typeof slugify | undefined;
let v2Library: typeof decamelizingSlugify | undefined;

/** The older server: npm `slugify` with `{lower: true, strict: true}` (`orderShipped` → `ordershipped`). */
export function slugifyV1(name: string): string {
  return memoized(v1, name, slugV1);
}

/**
 * The newer server: `@sindresorhus/slugify` (which the service vendors) with its defaults, which decamelize
 * (`orderShipped` → `order-shipped`, `snake_case` → `snake-case`).
 */
export function slugifyV2(name: string): string {
  return memoized(v2, name, slugV2);
}

/** The libraries themselves: the reference the ASCII fast paths (slug-fast.ts) are tested against. */
export function librarySlugV1(name: string): string {
  v1Library ??= require('slugify') as typeof slugify;
  return v1Library(name, { lower: true, strict: true });
}

export function librarySlugV2(name: string): string {
  v2Library ??= (require('@sindresorhus/slugify') as { default: typeof decamelizingSlugify }).default;
  return v2Library(name);
}

// Names are nearly always short ASCII, which the fast paths answer (and prove equal in tests); the rest goes to the
// libraries.
const slugV1 = (name: string): string => fastSlugV1(name) ?? librarySlugV1(name);
const slugV2 = (name: string): string => fastSlugV2(name) ?? librarySlugV2(name);

// The rules slug each workflow's name several times (the trigger, once per step, the identifier checks): once is
// enough. Bounded, oldest out first.
const LIMIT = 256;
const v1 = new Map<string, string>();
const v2 = new Map<string, string>();

function memoized(cache: Map<string, string>, name: string, slug: (name: string) => string): string {
  let result = cache.get(name);
  if (result === undefined) {
    result = slug(name);
    if (cache.size >= LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(name, result);
  }
  return result;
}
