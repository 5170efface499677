import { describe, expect, it } from 'vitest';
import { checkReviewedPlan } from '../../../src/plan/staleness.js';

/** A plan file read back by `sync --plan` is outside data: any shape is a problem named, never a crash. */

const ITEM = { identifier: 'welcome', action: 'create', desiredHash: 'sha256:1' };
const PLAN = { schemaVersion: 4, target: { name: 'dev' }, items: [ITEM] };
const READABLE = 'this wfsync reads schemaVersion 2, 3 and 4 (and plans written with "version": 1)';

describe('checkReviewedPlan', () => {
  it('accepts a plan as plan --out writes it', () => {
    expect(checkReviewedPlan(PLAN)).toEqual({ plan: { target: { name: 'dev' }, items: [ITEM], version: 1 } });
  });

  it("reads a plan's verdict (version 3) as the document's, not the plan's", () => {
    const verdict = {
      exitCode: 2,
      needsPerson: [],
      meaning: 'changes that sync applies (workflows to create, update or delete)',
    };
    expect(checkReviewedPlan({ ...PLAN, ...verdict })).toEqual(checkReviewedPlan(PLAN));
  });

  it('accepts a plan written before updates, with schemaVersion 3', () => {
    expect(checkReviewedPlan({ ...PLAN, schemaVersion: 3 })).toEqual(checkReviewedPlan(PLAN));
  });

  it('accepts a plan written before the verdict, with schemaVersion 2', () => {
    expect(checkReviewedPlan({ ...PLAN, schemaVersion: 2 })).toEqual(checkReviewedPlan(PLAN));
  });

  it('accepts a plan written before schemaVersion, with "version": 1', () => {
    const old = { version: 1, target: { name: 'dev' }, items: [ITEM] };
    expect(checkReviewedPlan(old)).toEqual({ plan: old });
  });

  it.each([
    ['null', null, 'not a wfsync plan (a JSON object with "schemaVersion")'],
    ['no version at all', { target: PLAN.target, items: [] }, 'not a wfsync plan (no "schemaVersion")'],
    [
      'a newer schemaVersion',
      { ...PLAN, schemaVersion: 5 },
      `the plan has schemaVersion 5; ${READABLE}: make the plan with the wfsync that syncs it`,
    ],
    [
      'a schemaVersion not a number',
      { ...PLAN, schemaVersion: '2' },
      `"schemaVersion" is not a number; ${READABLE}`,
    ],
    [
      'an old version other than 1',
      { version: 2, target: PLAN.target, items: [] },
      `the plan has "version": 2; ${READABLE}`,
    ],
    [
      'both, schemaVersion wrong',
      { ...PLAN, version: 1, schemaVersion: 1 },
      `the plan has schemaVersion 1; ${READABLE}: make the plan with the wfsync that syncs it`,
    ],
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
