import type { RuleOptions, SeverityOverride } from './rules/types.js';

/**
 * A file's rule options: `rules:` then, in order, every `overrides:` entry whose globs match the file (`matches(i)`
 * says whether entry i does), a later entry winning. Pure; the options themselves when no entry matches.
 */
export function buildFileRuleOptions(options: RuleOptions, matches: (index: number) => boolean): RuleOptions {
  const overrides = options.overrides ?? [];
  let severities: Record<string, SeverityOverride> | undefined;
  overrides.forEach((override, index) => {
    if (!matches(index)) return;
    severities = { ...(severities ?? options.severities), ...override.rules };
  });
  return severities === undefined ? options : { ...options, severities };
}
