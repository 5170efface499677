import { describe, expect, it } from 'vitest';
import { storedEntry } from '../../../src/cache/entry.js';
import { checkDefinitions } from '../../../src/check/check-definitions.js';
import { buildFileRuleOptions } from '../../../src/validate/overrides.js';
import type { RuleOptions } from '../../../src/validate/rules/index.js';
import { VALID } from '../../fixtures/workflow-texts.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const project = useTempProjects('wfsync-rule-control-');

/** VALID with one declared variable no template uses (variable-unused, a warning by default), named `name`. */
const unused = (name: string, identifier: string, comment = '') =>
  `${VALID.replace('order-shipped', identifier).replace('name: order shipped', `name: ${identifier}`)}${comment}      - { name: ${name}, type: String }\n`;

const FILES = {
  'workflows/a.yaml': unused('legacy', 'a'),
  'workflows/experiments/b.yaml': unused('trial', 'b'),
  'workflows/experiments/deep/c.yaml': unused('deeper', 'c'),
  'workflows/d.yaml': unused(
    'kept',
    'd',
    '      # wfsync-disable-next-line variable-unused -- old clients send it\n',
  ),
};

const run = (cwd: string, rules: RuleOptions, cache = false) =>
  checkDefinitions([], {
    cwd,
    defaultDir: 'workflows',
    rules,
    ...(cache ? { cache: { root: cwd, stored: new Map() } } : {}),
  });

const summary = (diagnostics: ReadonlyArray<{ file: string; severity: string; code: string }>) =>
  diagnostics.map((d) => `${d.file} ${d.severity} ${d.code}`);

describe('buildFileRuleOptions', () => {
  it('merges the matching entries in order after rules:, a later one winning', () => {
    const options: RuleOptions = {
      severities: { 'variable-unused': 'off', 'template-syntax': 'info' },
      overrides: [
        { files: ['a'], rules: { 'variable-unused': 'error' } },
        { files: ['b'], rules: { 'variable-unused': 'info', 'render-empty': 'off' } },
      ],
    };
    expect(buildFileRuleOptions(options, () => false)).toBe(options);
    expect(buildFileRuleOptions(options, (i) => i === 0).severities).toEqual({
      'variable-unused': 'error',
      'template-syntax': 'info',
    });
    expect(buildFileRuleOptions(options, () => true).severities).toEqual({
      'variable-unused': 'info',
      'template-syntax': 'info',
      'render-empty': 'off',
    });
  });
});

describe('rule control in checkDefinitions', () => {
  it('overrides apply by glob, relative to their base, in order, with every severity', async () => {
    const cwd = project(FILES);
    const rules: RuleOptions = {
      severities: { 'variable-unused': 'info' },
      overrides: [
        { files: ['workflows/experiments/**'], rules: { 'variable-unused': 'error' } },
        { files: ['**/deep/*.yaml'], rules: { 'variable-unused': 'off' } },
        { files: ['workflows/a.yaml'], rules: { 'variable-unused': 'warning' } },
      ],
      overridesBase: cwd,
    };
    const result = await run(cwd, rules);
    expect(summary(result.diagnostics)).toEqual([
      'workflows/a.yaml warning variable-unused',
      'workflows/experiments/b.yaml error variable-unused',
    ]);
    expect(summary(result.suppressed)).toEqual(['workflows/d.yaml info variable-unused']);
    expect(result.suppressed[0]?.suppressedBy).toEqual({
      line: VALID.split('\n').length, // the comment follows VALID's last line
      reason: 'old clients send it',
    });
    // Globs are relative to the base (the config's folder), not to the working directory: from workflows/, only
    // `**/deep/*.yaml` still matches.
    const elsewhere = await run(cwd, { ...rules, overridesBase: `${cwd}/workflows` });
    expect(summary(elsewhere.diagnostics)).toEqual([
      'workflows/a.yaml info variable-unused',
      'workflows/experiments/b.yaml info variable-unused',
    ]);
  });

  it('an override sets the project-wide rule per file too', async () => {
    const cwd = project({
      'workflows/a.yaml': VALID,
      'workflows/copies/b.yaml': VALID,
    });
    const result = await run(cwd, {
      overrides: [{ files: ['workflows/copies/**'], rules: { 'identifier-duplicate': 'warning' } }],
      overridesBase: cwd,
    });
    expect(summary(result.diagnostics)).toEqual([
      'workflows/a.yaml error identifier-duplicate',
      'workflows/copies/b.yaml warning identifier-duplicate',
    ]);
  });

  it('a cached run answers what an uncached one does, silenced findings included', async () => {
    const cwd = project(FILES);
    const rules: RuleOptions = { reportUnusedDisable: true };
    const fresh = await run(cwd, rules, true);
    // As the file holds them: through JSON.
    const stored = new Map<string, unknown>(
      [...fresh.cache!.entries].map(([path, e]) => [path, JSON.parse(JSON.stringify(storedEntry(path, e)))]),
    );
    const again = await checkDefinitions([], {
      cwd,
      defaultDir: 'workflows',
      rules,
      cache: { root: cwd, stored },
    });
    expect(again.cache?.unchanged).toBe(Object.keys(FILES).length);
    expect(again.diagnostics).toEqual(fresh.diagnostics);
    expect(again.suppressed).toEqual(fresh.suppressed);
    expect(again.suppressed).toHaveLength(1);
    const uncached = await run(cwd, rules);
    expect(uncached.diagnostics).toEqual(fresh.diagnostics);
    expect(uncached.suppressed).toEqual(fresh.suppressed);
  });
});
