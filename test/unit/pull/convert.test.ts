import { describe, expect, it } from 'vitest';
import { isCollection, parseDocument, visit } from 'yaml';
import { parseDefinition } from '../../../src/definitions/parse.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import {
  buildDefinitionFromRemote,
  buildDefinitionYaml,
  SCHEMA_MODELINE,
} from '../../../src/pull/convert.js';
import { validateDefinitionSchema } from '../../../src/validate/schema.js';
import {
  bodyOf,
  clone,
  createAndFetch,
  definition,
  desiredOf,
  emulator,
  exampleDefinitions,
  GROUP_ID,
  GROUPS,
  OTHER_GROUP_ID,
  storedFor,
} from '../plan/helpers.js';

/** The pulled text read back the way wfsync reads files, schema-checked. */
function readPulled(yaml: string, file = 'workflows/pulled.yaml'): WorkflowDefinition {
  const parsed = parseDefinition(file, new TextEncoder().encode(yaml));
  expect(parsed.diagnostics).toEqual([]);
  expect(validateDefinitionSchema(parsed.definition!)).toEqual([]);
  return parsed.definition!.value as WorkflowDefinition;
}

function flowCollections(yaml: string): number {
  let count = 0;
  visit(parseDocument(yaml), (_key, node) => {
    if (isCollection(node) && node.flow) count++;
  });
  return count;
}

describe('buildDefinitionFromRemote: every example, through the emulator', () => {
  it.each(exampleDefinitions().map((e) => [e.file, e] as const))('%s round-trips', async (file, example) => {
    const emu = await emulator();
    const groups = { defaultId: emu.notificationGroupId, named: { transactional: OTHER_GROUP_ID } };
    const original = desiredOf(example.definition, { file, groups });
    const stored = await createAndFetch(emu, original.body);

    const pulled = buildDefinitionFromRemote(stored, { groups });
    const yaml = buildDefinitionYaml(pulled);
    expect(yaml.startsWith(`${SCHEMA_MODELINE}\n`)).toBe(true);
    const fromFile = readPulled(yaml, file);
    expect(fromFile).toEqual(pulled);
    // The schema's key order, and no flow collections.
    const order = Object.keys(fromFile);
    expect(order).toEqual(
      [
        'name',
        'description',
        'tags',
        'active',
        'critical',
        'preferenceSettings',
        'notificationGroupId',
        'data',
        'steps',
        'triggers',
      ].filter((key) => key in fromFile),
    );
    expect(flowCollections(yaml)).toBe(0);

    // After a pull, plan finds the service's workflow in sync with the file…
    const adopted = desiredOf(fromFile, { file, groups });
    expect(compareWorkflow(adopted, stored).changes).toEqual([]);
    // …the file says what the original said, up to defaults and set order…
    expect(adopted.body.notificationGroupId).toBe(original.body.notificationGroupId);
    expect(compareWorkflow(original, stored).changes).toEqual([]);
    // …and creating from it (in another environment) gives the same workflow again.
    const other = await emulator();
    const otherGroups = { defaultId: other.notificationGroupId, named: { transactional: OTHER_GROUP_ID } };
    const again = desiredOf(fromFile, { file, groups: otherGroups });
    const recreated = await createAndFetch(other, again.body);
    expect(compareWorkflow(again, recreated).changes).toEqual([]);
    expect(buildDefinitionFromRemote(recreated, { groups: otherGroups })).toEqual(pulled);
  });
});

describe('buildDefinitionFromRemote', () => {
  it('leaves out server defaults, fill-ins, server-managed and unknown fields', () => {
    const explicit = definition({
      active: false,
      critical: false,
      tags: [],
      preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
      steps: [
        {
          name: 'inbox',
          active: true,
          shouldStopOnFail: false,
          filters: [],
          template: {
            type: 'in_app',
            content: '{{a}}',
            variables: [{ name: 'a', type: 'String', required: false }],
          },
        },
        { template: { type: 'email', subject: 'Hi', content: 'Hello {{b}}' } },
      ],
    });
    const stored = clone(storedFor(bodyOf(explicit)));
    Object.assign(stored, { userPreferences: { all: true }, status: 'ACTIVE' });
    Object.assign(stored.steps[0]!, { stepId: 'inbox', replyCallback: null });
    stored.steps[0]!.template!.variables![0]!.defaultValue = null;
    const pulled = buildDefinitionFromRemote(stored, { groups: GROUPS });
    const yaml = buildDefinitionYaml(pulled);
    expect(pulled).toEqual({
      name: 'order shipped',
      steps: [
        {
          name: 'inbox',
          template: { type: 'in_app', content: '{{a}}', variables: [{ name: 'a', type: 'String' }] },
        },
        { template: { type: 'email', content: 'Hello {{b}}', subject: 'Hi' } },
      ],
      triggers: [
        {
          type: 'event',
          identifier: 'order-shipped',
          variables: [
            { name: 'a', type: 'String' },
            { name: 'b', type: 'String' },
          ],
          subscriberVariables: [{ name: 'email' }],
        },
      ],
    });
    // The environment's default layout the service gave the email step is not pinned in the file.
    expect(stored.steps[1]!.template!._layoutId).toMatch(/^[0-9a-f]{24}$/);
    expect(yaml).not.toMatch(/layoutId|_id|createdAt|timed|required|reservedVariables/);
    readPulled(yaml);
  });

  it('keeps values that differ from the defaults', () => {
    const def = definition({
      critical: true,
      preferenceSettings: { sms: false },
      steps: [
        {
          active: false,
          shouldStopOnFail: true,
          template: {
            type: 'in_app',
            content: 'x',
            feedId: 'c00000000000000000000001',
            actor: { type: 'user', data: null },
            variables: [{ name: 'x', required: true, defaultValue: 'y' }],
          },
          metadata: { type: 'regular', amount: 1, unit: 'days', timed: { atTime: '10:00' } },
        },
      ],
    });
    const pulled = buildDefinitionFromRemote(storedFor(bodyOf(def)), { groups: GROUPS });
    expect(pulled).toMatchObject({ critical: true, preferenceSettings: { sms: false } });
    expect(pulled.steps[0]).toEqual({
      active: false,
      shouldStopOnFail: true,
      template: {
        type: 'in_app',
        content: 'x',
        variables: [{ name: 'x', required: true, defaultValue: 'y' }],
        feedId: 'c00000000000000000000001',
        actor: { type: 'user', data: null },
      },
      metadata: { type: 'regular', amount: 1, unit: 'days', timed: { atTime: '10:00' } },
    });
    readPulled(buildDefinitionYaml(pulled));
  });

  it.each([
    ['the default group is left out', GROUP_ID, undefined],
    ['a named group is referred to by name', OTHER_GROUP_ID, 'group:transactional'],
    ['any other group keeps its id', 'cccccccccccccccccccccccc', 'cccccccccccccccccccccccc'],
  ])('%s', (_what, id, expected) => {
    const stored = storedFor(bodyOf(definition({ notificationGroupId: id })));
    expect(buildDefinitionFromRemote(stored, { groups: GROUPS }).notificationGroupId).toBe(expected);
  });

  it('writes multi-line text as block scalars that read back unchanged', () => {
    const content = 'Line one: {{a}}\n  indented "quoted" #not-a-comment\n\ntrailing  \n';
    const stored = storedFor(bodyOf(definition({ steps: [{ template: { type: 'chat', content } }] })));
    const yaml = buildDefinitionYaml(buildDefinitionFromRemote(stored, { groups: GROUPS }));
    expect(yaml).toMatch(/content: \|/);
    expect(readPulled(yaml).steps[0].template.content).toBe(content);
  });
});
