import { describe, expect, it } from 'vitest';
import { buildRuleDiagnostics } from '../../../../src/validate/rules/index.js';
import { validateDefinitionSchema } from '../../../../src/validate/schema.js';
import { brief, loadYaml, yaml } from '../../../helpers/rules.js';

const a = loadYaml(
  yaml`
    name: order shipped
    notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
    triggers:
      - identifier: order-shipped
        type: event
    steps: [{ template: { type: sms, content: hi } }]
  `,
  'workflows/a.yaml',
);
const b = loadYaml(
  yaml`
    # copied from a.yaml
    name: order shipped
    notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
    triggers:
      - identifier: order-shipped
        type: event
    steps: [{ template: { type: sms, content: hi } }]
  `,
  'workflows/b.yaml',
);
// Fails the schema (no steps), but its identifier still collides.
const c = loadYaml(
  yaml`
    name: order shipped
    triggers: [{ identifier: order-shipped }]
  `,
  'workflows/c.yaml',
);
const other = loadYaml(
  yaml`
    name: order cancelled
    notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
    triggers:
      - identifier: order-cancelled
        type: event
    steps: [{ template: { type: sms, content: hi } }]
  `,
  'workflows/other.yaml',
);

const duplicates = (valid: (typeof a)[], all: (typeof a)[]) =>
  buildRuleDiagnostics({ valid, all, options: {} }).filter((d) => d.code === 'identifier-duplicate');

describe('identifier-duplicate', () => {
  it('passes when every file has its own identifier', () => {
    for (const definition of [a, b, other]) expect(validateDefinitionSchema(definition)).toEqual([]);
    expect(duplicates([a, other], [a, other])).toEqual([]);
  });

  it('reports each occurrence, naming the other files and lines, also for files that failed the schema', () => {
    const found = duplicates([a, b, other], [a, b, c, other]);
    expect(found.map((d) => ({ file: d.file, ...brief(d) }))).toEqual([
      {
        file: 'workflows/a.yaml',
        code: 'identifier-duplicate',
        severity: 'error',
        line: 4,
        column: 17,
        message:
          'identifier `order-shipped` is also used by workflows/b.yaml:5 and workflows/c.yaml:2; the service ' +
          'cannot create a second workflow under it (older servers silently add a random suffix, newer ones ' +
          'answer 400), so give each workflow its own name and identifier.',
      },
      {
        file: 'workflows/b.yaml',
        code: 'identifier-duplicate',
        severity: 'error',
        line: 5,
        column: 17,
        message: expect.stringContaining('also used by workflows/a.yaml:4 and workflows/c.yaml:2;'),
      },
      {
        file: 'workflows/c.yaml',
        code: 'identifier-duplicate',
        severity: 'error',
        line: 2,
        column: 26,
        message: expect.stringContaining('also used by workflows/a.yaml:4 and workflows/b.yaml:5;'),
      },
    ]);
    expect(found.every((d) => d.pointer === '/triggers/0/identifier')).toBe(true);
  });

  it('ignores documents whose identifier is not a string', () => {
    const numeric = loadYaml('name: x\ntriggers:\n  - identifier: 12\n', 'workflows/n.yaml');
    const alsoNumeric = loadYaml('name: y\ntriggers:\n  - identifier: 12\n', 'workflows/m.yaml');
    expect(duplicates([], [numeric, alsoNumeric])).toEqual([]);
  });

  it('follows severity overrides, including off', () => {
    const warn = buildRuleDiagnostics({
      valid: [],
      all: [a, b],
      options: { severities: { 'identifier-duplicate': 'warning' } },
    });
    expect(warn.map((d) => d.severity)).toEqual(['warning', 'warning']);
    const off = buildRuleDiagnostics({
      valid: [],
      all: [a, b],
      options: { severities: { 'identifier-duplicate': 'off' } },
    });
    expect(off).toEqual([]);
  });
});
