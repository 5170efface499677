import { describe, expect, it } from 'vitest';
import { buildCacheKey, type CacheKeyInput, currentBuildId, currentRuntime } from '../../../src/cache/key.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';

const BASE: CacheKeyInput = {
  version: '1.2.3',
  build: 'build-a',
  runtime: 'node 20.20.2; icu 77.1; unicode 16.0',
  rules: {
    severities: { 'variable-unused': 'off', 'identifier-name-mismatch': 'error' },
    notificationGroups: ['marketing', 'transactional'],
  },
  limits: { ...DEFAULT_LOAD_LIMITS },
};

describe('buildCacheKey', () => {
  it('is stable for the same input', () => {
    expect(buildCacheKey(BASE)).toBe(buildCacheKey(structuredClone(BASE)));
    expect(buildCacheKey(BASE)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('changes with every input an outcome depends on', () => {
    const variants: Record<string, CacheKeyInput> = {
      version: { ...BASE, version: '1.2.4' },
      build: { ...BASE, build: 'build-b' },
      'no build id': { ...BASE, build: undefined },
      runtime: { ...BASE, runtime: 'node 22.0.0; icu 74.1; unicode 15.1' },
      'a severity': {
        ...BASE,
        rules: { ...BASE.rules, severities: { ...BASE.rules.severities, 'variable-unused': 'warning' } },
      },
      'a severity more': {
        ...BASE,
        rules: { ...BASE.rules, severities: { ...BASE.rules.severities, 'template-syntax': 'error' } },
      },
      'no severities': { ...BASE, rules: { notificationGroups: BASE.rules.notificationGroups } },
      'a group less': { ...BASE, rules: { ...BASE.rules, notificationGroups: ['marketing'] } },
      'groups unknown': { ...BASE, rules: { severities: BASE.rules.severities } },
      'no groups': { ...BASE, rules: { ...BASE.rules, notificationGroups: [] } },
      'an override': {
        ...BASE,
        rules: { ...BASE.rules, overrides: [{ files: ['a/**'], rules: { 'variable-unused': 'error' } }] },
      },
      'overrides in another order': {
        ...BASE,
        rules: {
          ...BASE.rules,
          overrides: [
            { files: ['b/**'], rules: { 'variable-unused': 'info' } },
            { files: ['a/**'], rules: { 'variable-unused': 'error' } },
          ],
        },
      },
      'overrides in order': {
        ...BASE,
        rules: {
          ...BASE.rules,
          overrides: [
            { files: ['a/**'], rules: { 'variable-unused': 'error' } },
            { files: ['b/**'], rules: { 'variable-unused': 'info' } },
          ],
        },
      },
      'an override glob': {
        ...BASE,
        rules: { ...BASE.rules, overrides: [{ files: ['c/**'], rules: { 'variable-unused': 'error' } }] },
      },
      'the overrides base': {
        ...BASE,
        rules: {
          ...BASE.rules,
          overrides: [{ files: ['a/**'], rules: { 'variable-unused': 'error' } }],
          overridesBase: '/elsewhere',
        },
      },
      'report unused disable': { ...BASE, rules: { ...BASE.rules, reportUnusedDisable: true } },
      maxBytes: { ...BASE, limits: { ...BASE.limits, maxBytes: 1000 } },
      maxDepth: { ...BASE, limits: { ...BASE.limits, maxDepth: 10 } },
      maxAliasCount: { ...BASE, limits: { ...BASE.limits, maxAliasCount: 5 } },
    };
    const keys = new Map<string, string>([[buildCacheKey(BASE), 'base']]);
    for (const [name, input] of Object.entries(variants)) {
      const key = buildCacheKey(input);
      expect(keys.get(key), `${name} gives the same key as ${keys.get(key)}`).toBeUndefined();
      keys.set(key, name);
    }
  });

  it('does not depend on the order of the config rules', () => {
    const reordered: CacheKeyInput = {
      ...BASE,
      rules: {
        severities: { 'identifier-name-mismatch': 'error', 'variable-unused': 'off' },
        notificationGroups: ['marketing', 'transactional'],
      },
      limits: { maxAliasCount: 100, maxDepth: 64, maxBytes: 1024 * 1024 },
    };
    expect(buildCacheKey(reordered)).toBe(buildCacheKey(BASE));
  });
});

describe('currentRuntime', () => {
  it("names Node's version and the Unicode data it brings", () => {
    expect(currentRuntime()).toBe(
      `node ${process.versions.node}; icu ${process.versions.icu}; unicode ${process.versions.unicode}`,
    );
  });
});

describe('currentBuildId', () => {
  it('is undefined from the TypeScript sources: only scripts/build.mjs defines it', () => {
    expect(currentBuildId()).toBeUndefined();
  });
});
