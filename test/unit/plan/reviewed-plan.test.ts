import { describe, expect, it } from 'vitest';
import { checkReviewedPlan } from '../../../src/plan/staleness.js';

/** A plan file read back by `sync --plan` is outside data: any shape is a problem named, never a crash. */

const ITEM = { identifier: 'welcome', action: 'create', desiredHash: 'sha256:1' };
const PLAN = { version: 1, target: { name: 'dev' }, items: [ITEM] };

describe('checkReviewedPlan', () => {
  it('accepts a plan as plan --out writes it', () => {
    expect(checkReviewedPlan(PLAN)).toEqual({ plan: PLAN });
  });

  it.each([
    ['null', null, 'not a wfsync plan (version 1)'],
    ['another version', { ...PLAN, version: 2 }, 'not a wfsync plan (version 1)'],
    ['no target', { ...PLAN, target: undefined }, '"target.name" is missing or not a string'],
    ['a target without a name', { ...PLAN, target: {} }, '"target.name" is missing or not a string'],
    ['items not a list', { ...PLAN, items: {} }, '"items" is missing or not a list'],
    ['an item not an object', { ...PLAN, items: [ITEM, 7] }, 'items[1] is not an object'],
    [
      'an item without identifier',
      { ...PLAN, items: [{ action: 'create' }] },
      'items[0].identifier is missing or not a string',
    ],
    [
      'an action not a string',
      { ...PLAN, items: [{ ...ITEM, action: ['create'] }] },
      'items[0].action is missing or not a string',
    ],
    [
      'a hash not a string',
      { ...PLAN, items: [{ ...ITEM, desiredHash: {} }] },
      'items[0].desiredHash is not a string',
    ],
    [
      'a version not a string',
      { ...PLAN, items: [{ ...ITEM, remoteVersion: 3 }] },
      'items[0].remoteVersion is not a string',
    ],
  ])('%s: refused with the field named', (_name, value, problem) => {
    expect(checkReviewedPlan(value)).toEqual({ problem });
  });
});
