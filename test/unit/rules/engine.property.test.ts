import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { buildFileValidation, buildValidation } from '../../../src/validate/index.js';
import { KNOWN_RULE_CODES, type RuleOptions } from '../../../src/validate/rules/index.js';
import { syntheticDefinition } from '../../bench/synthetic.mjs';
import { mutationProfile, runs } from '../../helpers/fc-runs.js';
import { editedWorkflow } from '../definitions/yaml-arbitraries.js';
import { loadYaml } from './load.js';
import * as reference from './reference/validate.js';
import { ruleOptions, tidyWorkflowText, workflowText } from './workflow-arbitraries.js';

/**
 * The property: the rules and validation give exactly what the code before the allocation work gave (the frozen
 * copy in reference/): the same diagnostics, fields in the same order, in the same order. Returns them.
 */
function sameAsReference(texts: readonly string[], options: RuleOptions): Diagnostic[] {
  const definitions = texts.map((text, i) => loadYaml(text, `workflows/w${i}.yaml`));
  const actual = buildValidation({ definitions, options });
  const expected = reference.buildValidation({ definitions, options });
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  // The per-file half on its own too: check/ calls it for each file.
  const perFile = buildFileValidation({ definitions, options });
  expect(JSON.stringify(perFile)).toBe(
    JSON.stringify(reference.buildFileValidation({ definitions, options })),
  );
  return actual;
}

function loads(text: string): boolean {
  try {
    loadYaml(text);
    return true;
  } catch {
    return false;
  }
}

const EXAMPLES_DIR = new URL('../../../workflows/', import.meta.url);
const EXAMPLES = readdirSync(EXAMPLES_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => readFileSync(new URL(name, EXAMPLES_DIR), 'utf8'));

describe('the rules give what they gave before the allocation work (differential, property-based)', () => {
  it('on tidy generated workflows: the no-findings paths', () => {
    let clean = 0;
    fc.assert(
      fc.property(tidyWorkflowText, ruleOptions, (text, options) => {
        if (sameAsReference([text], options).length === 0) clean++;
      }),
      { numRuns: runs(300) },
    );
    expect(clean).toBeGreaterThan(runs(300) / 2); // about 90% in practice
  });

  it('on generated workflows where anything may be off, alone and in groups, with random rule options', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(workflowText, { minLength: 1, maxLength: 2 }), ruleOptions, (texts, options) => {
        for (const d of sameAsReference(texts, options)) seen.set(d.code, (seen.get(d.code) ?? 0) + 1);
      }),
      { numRuns: runs(500) },
    );
    // Not vacuous: every rule reports somewhere. A property of the generator, not of the rules, and 100 cases (the
    // mutation profile's cap) are too few for the rarest ones: checked in normal runs only.
    for (const code of mutationProfile ? [] : KNOWN_RULE_CODES) {
      expect(seen.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  });

  it('on the example workflows with random edits', () => {
    fc.assert(
      fc.property(editedWorkflow.filter(loads), ruleOptions, (text, options) => {
        sameAsReference([text], options);
      }),
      { numRuns: runs(500) },
    );
  });

  it('on the example workflows and the benchmark definitions as they are', () => {
    for (const options of [{}, { notificationGroups: ['transactional', 'marketing'] }]) {
      sameAsReference(EXAMPLES, options);
    }
    const synthetic = Array.from({ length: 40 }, (_, i) => syntheticDefinition(i));
    expect(sameAsReference(synthetic, {})).toEqual([]);
  });
});
