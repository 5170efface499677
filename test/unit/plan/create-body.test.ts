import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { buildCreateBody, groupReferenceOf, resolveGroup } from '../../../src/plan/create-body.js';
import { definition, GROUP_ID, GROUPS, OTHER_GROUP_ID } from './helpers.js';

describe('buildCreateBody', () => {
  it('sends the definition without triggers, in its key order, with the default group', () => {
    const def = definition({ description: 'd', tags: ['a'], active: true, data: { k: 1 } });
    const result = buildCreateBody(def, GROUPS);
    expect(result).toEqual({
      body: {
        name: 'order shipped',
        steps: def.steps,
        description: 'd',
        tags: ['a'],
        active: true,
        data: { k: 1 },
        notificationGroupId: GROUP_ID,
      },
    });
    if (!('body' in result)) throw new Error('expected a body');
    // The group takes the schema's place (before data and steps) when the file names none.
    expect(Object.keys(result.body)).toEqual([
      'name',
      'notificationGroupId',
      'steps',
      'description',
      'tags',
      'active',
      'data',
    ]);
    expect(result.body).not.toHaveProperty('triggers');
    // Steps go exactly as declared.
    expect(result.body.steps).toBe(def.steps);
  });

  it('puts an omitted group before data when data comes first', () => {
    const { name, steps, triggers } = definition();
    const result = buildCreateBody({ name, data: { k: 1 }, steps, triggers }, GROUPS);
    if (!('body' in result)) throw new Error(result.problem);
    expect(Object.keys(result.body)).toEqual(['name', 'notificationGroupId', 'data', 'steps']);
  });

  it('leaves out fields that are undefined', () => {
    const result = buildCreateBody(definition({ description: undefined, tags: ['a'] }), GROUPS);
    if (!('body' in result)) throw new Error(result.problem);
    expect(Object.keys(result.body)).toEqual(['name', 'notificationGroupId', 'steps', 'tags']);
  });

  it('sends the group even for a definition with neither steps nor data', () => {
    const bare = { name: 'x', triggers: definition().triggers } as unknown as WorkflowDefinition;
    expect(buildCreateBody(bare, GROUPS)).toEqual({ body: { name: 'x', notificationGroupId: GROUP_ID } });
  });

  it("keeps a declared group in the file's position", () => {
    const def = { ...definition(), notificationGroupId: 'group:transactional', critical: true };
    const result = buildCreateBody(def, GROUPS);
    if (!('body' in result)) throw new Error(result.problem);
    expect(Object.keys(result.body)).toEqual(['name', 'steps', 'notificationGroupId', 'critical']);
    expect(result.body.notificationGroupId).toBe(OTHER_GROUP_ID);
  });

  it('keeps a 24-hex group id as it is', () => {
    const result = buildCreateBody(definition({ notificationGroupId: 'cccccccccccccccccccccccc' }), GROUPS);
    expect(result).toMatchObject({ body: { notificationGroupId: 'cccccccccccccccccccccccc' } });
  });

  it('says what to do when no group can be resolved', () => {
    expect(buildCreateBody(definition(), { named: {} })).toEqual({
      problem:
        "no notificationGroupId: set one in the definition, the target's notificationGroupId in wfsync.config.yaml, or WFSYNC_NOTIFICATION_GROUP_ID",
    });
    expect(
      buildCreateBody(definition({ notificationGroupId: 'group:marketing' }), { ...GROUPS, target: 'prod' }),
    ).toEqual({
      problem:
        'notificationGroupId "group:marketing" is not defined for target "prod" (known: "transactional"): add it ' +
        "to the target's notificationGroups in wfsync.config.yaml",
    });
    expect(buildCreateBody(definition({ notificationGroupId: 'group:x' }), { named: {} })).toEqual({
      problem: expect.stringContaining('is not defined for the target (it defines none)'),
    });
  });

  it('does not resolve a group name through Object.prototype', () => {
    const result = buildCreateBody(definition({ notificationGroupId: 'group:constructor' }), GROUPS);
    expect(result).toHaveProperty('problem');
  });

  it('rejects a reference that is neither an id nor a group name', () => {
    expect(buildCreateBody(definition({ notificationGroupId: 'General' }), GROUPS)).toEqual({
      problem: 'notificationGroupId "General" is neither a 24-character lower-case hex id nor group:<name>',
    });
  });
});

describe('resolveGroup', () => {
  const groups = { defaultId: GROUP_ID, named: { zeta: OTHER_GROUP_ID, alpha: 'cccccccccccccccccccccccc' } };

  it.each<[string, string | undefined, ReturnType<typeof resolveGroup>]>([
    ['no reference: the default group', undefined, { id: GROUP_ID }],
    ['a named group', 'group:alpha', { id: 'cccccccccccccccccccccccc' }],
    ['an id', 'dddddddddddddddddddddddd', { id: 'dddddddddddddddddddddddd' }],
    [
      'an unknown name: the known ones listed in sorted order',
      'group:beta',
      {
        problem:
          'notificationGroupId "group:beta" is not defined for the target (known: "alpha", "zeta"): add it to ' +
          "the target's notificationGroups in wfsync.config.yaml",
      },
    ],
    [
      'an id with upper case',
      'DDDDDDDDDDDDDDDDDDDDDDDD',
      { problem: expect.stringContaining('is neither a 24-character lower-case hex id') },
    ],
    [
      'an id one character short',
      'ddddddddddddddddddddddd',
      { problem: expect.stringContaining('is neither a 24-character lower-case hex id') },
    ],
    [
      'an id inside a longer text',
      'x dddddddddddddddddddddddd x',
      { problem: expect.stringContaining('is neither a 24-character lower-case hex id') },
    ],
    [
      'a group prefix without a name',
      'group:',
      { problem: expect.stringContaining('notificationGroupId "group:" is not defined for the target') },
    ],
  ])('%s', (_what, reference, expected) => {
    expect(resolveGroup(reference, groups)).toEqual(expected);
  });
});

describe('groupReferenceOf (pull)', () => {
  const groups = {
    defaultId: GROUP_ID,
    named: { zeta: OTHER_GROUP_ID, beta: OTHER_GROUP_ID, alpha: 'cccccccccccccccccccccccc' },
  };

  it.each<[string, string, string | undefined]>([
    ['the default group is left out', GROUP_ID, undefined],
    ['a named group by its first name in sorted order', OTHER_GROUP_ID, 'group:beta'],
    ['a group with one name', 'cccccccccccccccccccccccc', 'group:alpha'],
    ['any other id is kept', 'dddddddddddddddddddddddd', 'dddddddddddddddddddddddd'],
  ])('%s', (_what, id, expected) => {
    expect(groupReferenceOf(id, groups)).toBe(expected);
  });

  it('with no default group, every id is named or kept', () => {
    expect(groupReferenceOf(GROUP_ID, { named: {} })).toBe(GROUP_ID);
  });
});
