/**
 * The config's `overrides:` matched against files: which entries' globs (relative to the config file's folder) match
 * a definition, for validate/overrides.ts to merge. picomatch is loaded, and each glob compiled, only when a config
 * has overrides.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type picomatchType from 'picomatch';
import { buildFileRuleOptions } from '../validate/overrides.js';
import type { RuleOptions } from '../validate/rules/index.js';

/** A definition's (display path) rule options: the run's, with the overrides that match it merged in. */
export function createFileRuleOptions(rules: RuleOptions, cwd: string): (file: string) => RuleOptions {
  const overrides = rules.overrides ?? [];
  if (overrides.length === 0) return () => rules;
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  const matchers = overrides.map((override) => picomatch([...override.files], { dot: true }));
  const base = rules.overridesBase ?? cwd;
  return (file) => {
    const relative = path.relative(base, path.resolve(cwd, file)).split(path.sep).join('/');
    return buildFileRuleOptions(rules, (index) => matchers[index]!(relative));
  };
}
