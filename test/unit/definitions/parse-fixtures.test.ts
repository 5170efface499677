import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { FIXTURES, where } from './helpers.js';

/** One case per folder under test/fixtures/definitions; every folder must be listed here. */
interface Case {
  /** `code@line:column` of every diagnostic, in order. */
  diagnostics: string[];
  /** Exact message of the first diagnostic, where the wording matters. */
  message?: string;
  pointer?: string;
  /** The parsed value (clean or warning-only cases). */
  value?: unknown;
}

const CASES: Record<string, Case> = {
  valid: { diagnostics: [] },
  'flow-style': {
    diagnostics: [],
    value: {
      name: 'Welcome',
      steps: [{ name: 'In-app', template: { type: 'in_app', content: 'Hi {{name}}' } }],
    },
  },
  directive: { diagnostics: [], value: { name: 'Welcome', steps: [] } },
  'end-marker': { diagnostics: [], value: { name: 'Welcome', steps: [] } },
  'merge-keys': {
    diagnostics: [],
    value: {
      'x-step': { active: true, shouldStopOnFail: false },
      name: 'Welcome',
      steps: [
        {
          active: true,
          shouldStopOnFail: false,
          name: 'In-app',
          template: { type: 'in_app', content: 'Hi' },
        },
        { active: false, shouldStopOnFail: false, name: 'SMS', template: { type: 'sms', content: 'Hi' } },
      ],
    },
  },
  'numeric-keys': {
    diagnostics: [],
    // Keys keep the author's text: `1.0` is not folded into `1`, `null` is not the empty string.
    value: {
      name: 'Welcome',
      steps: [],
      data: { '1': 'one', '1.0': 'one point zero', true: 'yes', null: 'nothing' },
    },
  },
  'yaml-1-1': {
    diagnostics: ['yaml-warning@1:1'],
    message: '%YAML 1.1 is read with YAML 1.2 rules: yes/no/on/off stay text and dates are not converted',
    value: { name: 'Welcome', active: 'yes', steps: [] },
  },
  'yaml-warning': {
    diagnostics: ['yaml-warning@1:7'],
    message: 'Unsupported YAML version 1.3 (BAD_DIRECTIVE)',
  },
  empty: { diagnostics: ['file-empty@1:1'], message: 'file is empty: there is no YAML document in it' },
  'comments-only': { diagnostics: ['file-empty@1:1'] },
  'tab-indent': {
    diagnostics: ['yaml-tab-indent@3:1'],
    message: 'tabs are not allowed as indentation; use spaces',
  },
  'syntax-error': {
    diagnostics: ['yaml-syntax@3:1'],
    message: 'Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)',
  },
  'duplicate-key': {
    diagnostics: ['yaml-duplicate-key@7:7'],
    message: 'duplicate key "type": it is already set on line 5',
    pointer: '/steps/0/template/type',
  },
  'multiple-documents': { diagnostics: ['yaml-multiple-documents@3:1'] },
  'root-sequence': { diagnostics: ['root-not-mapping@1:1'] },
  'root-scalar': {
    diagnostics: ['root-not-mapping@1:1'],
    message:
      'the top level must be a mapping of keys to values (name: …), but this file holds a single string',
  },
  'root-null': { diagnostics: ['root-not-mapping@2:1'] },
  'non-string-key': { diagnostics: ['yaml-non-string-key@3:5'], pointer: '/data' },
  'unknown-tag': {
    diagnostics: ['yaml-unknown-tag@4:12', 'yaml-unknown-tag@5:11'],
    message:
      'unsupported tag !!js/function: remove it (only the standard YAML tags such as !!str are allowed, where they fit)',
  },
  'unresolved-alias': {
    diagnostics: ['yaml-unresolved-alias@3:5'],
    message: 'alias *inApp has no anchor &inApp before it',
    pointer: '/steps/0',
  },
  'recursive-alias': { diagnostics: ['yaml-recursive-alias@3:9'], pointer: '/data/self' },
  'invalid-merge': { diagnostics: ['yaml-invalid-merge@4:9'], pointer: '/steps/0' },
  'non-json-value': { diagnostics: ['yaml-non-json-value@4:10'], pointer: '/data/limit' },
};

const folders = readdirSync(FIXTURES).sort();

describe('parseDefinition on fixture files', () => {
  it('has an expectation for every fixture folder and a folder for every expectation', () => {
    expect(folders).toEqual(Object.keys(CASES).sort());
  });

  for (const folder of folders) {
    const expected = CASES[folder];
    if (!expected) continue;
    it(`${folder}: ${expected.diagnostics.join(', ') || 'clean'}`, async () => {
      const file = `${folder}/workflow.yaml`;
      const bytes = await readFile(path.join(FIXTURES, file));
      const result = parseDefinition(file, bytes);
      expect(where(result.diagnostics)).toEqual(expected.diagnostics);
      for (const d of result.diagnostics) expect(d.file).toBe(file);
      const first = result.diagnostics[0];
      if (expected.message !== undefined) expect(first?.message).toBe(expected.message);
      if (expected.pointer !== undefined) expect(first?.pointer).toBe(expected.pointer);
      const hasError = result.diagnostics.some((d) => d.severity === 'error');
      // A definition comes back exactly when nothing is wrong with the YAML itself.
      expect(result.definition === undefined).toBe(hasError);
      if (expected.value !== undefined) expect(result.definition?.value).toEqual(expected.value);
      if (result.definition) expect(result.definition.text).toBe(bytes.toString('utf8'));
    });
  }

  it('reads the realistic workflow into plain JSON data', async () => {
    const bytes = await readFile(path.join(FIXTURES, 'valid/workflow.yaml'));
    const value = parseDefinition('valid/workflow.yaml', bytes).definition?.value as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(value))).toEqual(value);
    expect(value.name).toBe('Order Shipped');
    expect(value.tags).toEqual(['orders', 'shipping']);
    const steps = value.steps as Array<Record<string, unknown>>;
    expect(steps.map((s) => s.name)).toEqual(['In-app notice', 'Wait a little', 'Email', 'SMS']);
    const email = steps[2]?.template as { content: string } | undefined;
    expect(email?.content).toMatch(/^<p>Hello \{\{subscriber\.firstName\}\},<\/p>\n/);
  });
});
