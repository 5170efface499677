/**
 * The trigger identifier the service derives from a workflow's name. The two server generations differ on camelCase
 * and snake_case names; lower-case words separated by spaces slug the same on both.
 */
import type decamelizingSlugify from '@sindresorhus/slugify';
import type slugify from 'slugify';
import { onFirstUse } from './first-use.js';
import { BoundedMemo } from './memo.js';
import { fastSlugV1, fastSlugV2 } from './slug-fast.js';

// Loaded on first use (first-use.ts): loading @sindresorhus/slugify builds its transliteration patterns for every
// locale, ~17 ms of every start-up, while the ASCII fast paths answer nearly every name.
const v1Library = onFirstUse<typeof slugify>('slugify');
const v2Library = onFirstUse<{ default: typeof decamelizingSlugify }>('@sindresorhus/slugify');

/** The older server: npm `slugify` with `{lower: true, strict: true}` (`orderShipped` → `ordershipped`). */
export function slugifyV1(name: string): string {
  return v1.get(name, slugV1);
}

/**
 * The newer server: `@sindresorhus/slugify` (which the service vendors) with its defaults, which decamelize
 * (`orderShipped` → `order-shipped`, `snake_case` → `snake-case`).
 */
export function slugifyV2(name: string): string {
  return v2.get(name, slugV2);
}

/** The libraries themselves: the reference the ASCII fast paths (slug-fast.ts) are tested against. */
export function librarySlugV1(name: string): string {
  return v1Library()(name, { lower: true, strict: true });
}

export function librarySlugV2(name: string): string {
  return v2Library().default(name);
}

// Names are nearly always short ASCII, which the fast paths answer (and prove equal in tests); the rest goes to the
// libraries.
const slugV1 = (name: string): string => fastSlugV1(name) ?? librarySlugV1(name);
const slugV2 = (name: string): string => fastSlugV2(name) ?? librarySlugV2(name);

// The rules slug each workflow's name several times (the trigger, once per step, the identifier checks): once is
// enough. A few entries only: a name kept longer keeps its file's whole text alive (it is cut from it), which the
// young-generation GC then copies and promotes (see parse-template.ts).
const v1 = new BoundedMemo<string>(4);
const v2 = new BoundedMemo<string>(4);
