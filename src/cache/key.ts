/**
 * The validate cache's global key: everything besides a file's own bytes, display path and includes that its
 * outcome depends on. A cache written under another key is dropped as a whole.
 */
import type { LoadLimits } from '../definitions/limits.js';
import { canonicalJson } from '../json.js';
import type { RuleOptions } from '../validate/rules/index.js';
import { hashContent } from './hash.js';

/** Bumped whenever what an entry holds, or how it is read, changes. */
export const CACHE_FORMAT = 3;

export interface CacheKeyInput {
  /** wfsync's version. */
  version: string;
  /** The build's random id (currentBuildId), so a rebuilt development tree never trusts an older build's results. */
  build?: string | undefined;
  /** The JavaScript runtime: Unicode tables and ICU (slugs, segmenters) come with it. */
  runtime: string;
  rules: RuleOptions;
  limits: LoadLimits;
}

/**
 * Pure: the same input gives the same key, whatever the order of the config's `rules:` keys. The `wfsync-disable`
 * comments need nothing here: they are in the file's bytes, which each entry's hash covers.
 */
export function buildCacheKey(input: CacheKeyInput): string {
  const rules = {
    severities: input.rules.severities ?? {},
    notificationGroups: input.rules.notificationGroups ?? null,
    // In order: a later entry wins, so reordering them changes outcomes.
    overrides: input.rules.overrides ?? [],
    overridesBase: input.rules.overridesBase ?? null,
    reportUnusedDisable: input.rules.reportUnusedDisable === true,
  };
  const key = [CACHE_FORMAT, input.version, input.build ?? null, input.runtime, rules, input.limits];
  return hashContent(canonicalJson(key));
}

/** Node's version with its ICU and Unicode versions. */
export function currentRuntime(): string {
  const { node, icu, unicode } = process.versions;
  return `node ${node}; icu ${icu ?? 'none'}; unicode ${unicode ?? 'unknown'}`;
}

/** Replaced by scripts/build.mjs with the build's random id; not defined when running from the sources. */
declare const __WFSYNC_BUILD_ID__: string | undefined;

/**
 * The id scripts/build.mjs gives each build of dist/. Undefined from the TypeScript sources (under vitest): the
 * version alone then keys the cache.
 */
export function currentBuildId(): string | undefined {
  return typeof __WFSYNC_BUILD_ID__ === 'string' ? __WFSYNC_BUILD_ID__ : undefined;
}
