import { describe, expect, it } from 'vitest';
import { buildCreateBody } from '../../../src/plan/index.js';
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
