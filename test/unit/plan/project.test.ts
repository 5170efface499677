import { describe, expect, it } from 'vitest';
import { expandDeclared, fromRemote, matchByName, projectRemote } from '../../../src/plan/project.js';
import { type ObjectShape, type Shape, STEP_SHAPE, WORKFLOW_SHAPE } from '../../../src/plan/shape.js';

/** Projections on small shapes: what each side of a comparison (and pull) keeps, fills in and leaves out. */

const value: Shape = { kind: 'value' };
const nullable: Shape = { kind: 'value', nullable: true };
const ITEM: ObjectShape = { kind: 'object', fields: { name: value, type: value } };
const SHAPE: ObjectShape = {
  kind: 'object',
  fields: {
    name: value,
    level: value,
    note: nullable,
    flags: { kind: 'list', items: value, match: 'index' },
    inner: { kind: 'object', fields: { a: value } },
    byIndex: { kind: 'list', items: ITEM, match: 'index' },
    byName: { kind: 'list', items: ITEM, match: 'name' },
    secret: value,
    stored: value,
  },
  defaults: { level: 1, byIndex: [] },
  pullOmits: { flags: [] },
  pullSkips: ['secret'],
  remote: { stored: (response) => response._stored },
};

describe('expandDeclared (the file side)', () => {
  it('keeps declared fields in shape order, fills documented defaults, drops unknown keys', () => {
    expect(expandDeclared({ inner: { a: 1, z: 2 }, unknown: 1, name: 'n' }, SHAPE)).toEqual({
      name: 'n',
      level: 1,
      inner: { a: 1 },
      byIndex: [],
    });
    expect(Object.keys(expandDeclared({ inner: { a: 1 }, name: 'n' }, SHAPE) as object)).toEqual([
      'name',
      'level',
      'inner',
      'byIndex',
    ]);
  });

  it('a declared value wins over the default, and list items are expanded', () => {
    expect(expandDeclared({ level: 2, byIndex: [{ type: 't', x: 1 }] }, SHAPE)).toEqual({
      level: 2,
      byIndex: [{ type: 't' }],
    });
  });

  it('leaves values that do not have the shape as they are', () => {
    expect(expandDeclared('text', SHAPE)).toBe('text');
    expect(expandDeclared({ byIndex: 'text' }, SHAPE)).toEqual({ level: 1, byIndex: 'text' });
    expect(expandDeclared([1], SHAPE)).toEqual([1]);
  });
});

describe('projectRemote (the service side, cut to the file side)', () => {
  it('keeps only the keys the file side has, read under the service names', () => {
    const declared = { name: 'n', stored: 's', level: 1 };
    const remote = { stored: 'wrong', _stored: 's', name: 'n', level: 2, extra: true, inner: { a: 1 } };
    expect(projectRemote(remote, declared, SHAPE)).toEqual({ name: 'n', stored: 's', level: 2 });
  });

  it('reads a missing or null defaulted field as its default; other missing fields stay missing', () => {
    const declared = { name: 'n', level: 1, note: 'x' };
    expect(projectRemote({ name: 'n', level: null, note: null }, declared, SHAPE)).toEqual({
      name: 'n',
      level: 1,
      note: null,
    });
    expect(projectRemote({}, declared, SHAPE)).toStrictEqual({ level: 1 });
  });

  it('lists by index: extra stored elements as pull would write them', () => {
    const declared = { byIndex: [{ name: 'a' }] };
    const remote = {
      byIndex: [
        { name: 'a', type: 't', _id: 1 },
        { name: 'b', _id: 2 },
      ],
    };
    expect(projectRemote(remote, declared, SHAPE)).toEqual({ byIndex: [{ name: 'a' }, { name: 'b' }] });
  });

  it('lists by name: matched elements projected, missing ones dropped, extra ones after', () => {
    const declared = { byName: [{ name: 'a' }, { name: 'gone', type: 't' }] };
    const remote = {
      byName: [
        { name: 'c', type: 'x', _id: 3 },
        { name: 'a', type: 'y', _id: 1 },
      ],
    };
    expect(projectRemote(remote, declared, SHAPE)).toEqual({
      byName: [{ name: 'a' }, { name: 'c', type: 'x' }],
    });
  });

  it('leaves values that do not have the shape as they are', () => {
    expect(projectRemote('text', { name: 'n' }, SHAPE)).toBe('text');
    expect(projectRemote({ name: 'n' }, 'text', SHAPE)).toEqual({ name: 'n' });
    expect(projectRemote({ byIndex: 'text' }, { byIndex: [] }, SHAPE)).toEqual({ byIndex: 'text' });
    expect(projectRemote({ byName: [{ name: 'a' }] }, { byName: 'text' }, SHAPE)).toEqual({
      byName: [{ name: 'a' }],
    });
  });
});

describe('fromRemote (as a definition declares it)', () => {
  it('keeps declarable fields in shape order, without skipped, defaulted, omitted or empty ones', () => {
    const remote = {
      _id: 'x',
      stored: 'ignored: read from _stored',
      _stored: 's',
      secret: 'environment-specific',
      inner: { z: 1 },
      byIndex: [],
      flags: [],
      level: 1,
      name: 'n',
    };
    const converted = fromRemote(remote, SHAPE);
    expect(converted).toEqual({ name: 'n', stored: 's' });
    expect(Object.keys(converted as object)).toEqual(['name', 'stored']);
  });

  it('keeps values that differ from the defaults and the omitted values', () => {
    expect(fromRemote({ level: 2, flags: ['f'], byIndex: [{ name: 'a' }], inner: { a: 0 } }, SHAPE)).toEqual({
      level: 2,
      flags: ['f'],
      inner: { a: 0 },
      byIndex: [{ name: 'a' }],
    });
  });

  it('keeps an empty free-form value: only shaped objects left empty are dropped', () => {
    expect(fromRemote({ level: {}, inner: {} }, SHAPE)).toEqual({ level: {} });
  });

  it('keeps null only where the schema allows it', () => {
    expect(fromRemote({ note: null, name: null, inner: null, byIndex: null }, SHAPE)).toEqual({ note: null });
    expect(fromRemote({ flags: [null, 'f', null] }, SHAPE)).toEqual({ flags: ['f'] });
    expect(fromRemote(null, nullable)).toBeNull();
    expect(fromRemote(null, value)).toBeUndefined();
  });

  it('leaves values that do not have the shape as they are', () => {
    expect(fromRemote('text', SHAPE)).toBe('text');
    expect(fromRemote({ byIndex: 'text' }, SHAPE)).toEqual({ byIndex: 'text' });
  });

  it('never pulls the layout the service gives every email template', () => {
    const step = { template: { type: 'email', content: 'x', _layoutId: 'l', layoutId: 'l', _feedId: 'f' } };
    expect(fromRemote(step, STEP_SHAPE)).toEqual({ template: { type: 'email', content: 'x', feedId: 'f' } });
  });
});

describe('matchByName', () => {
  it('pairs each declared element with the first unused stored one of its name', () => {
    const declared = [{ name: 'a', n: 1 }, { name: 'b' }, { name: 'a', n: 2 }, { name: 'x' }];
    const remote = [{ name: 'a', r: 1 }, { name: 'c' }, { name: 'a', r: 2 }, { name: 'b' }];
    expect(matchByName(declared, remote)).toEqual({
      pairs: [
        [
          { name: 'a', n: 1 },
          { name: 'a', r: 1 },
        ],
        [{ name: 'b' }, { name: 'b' }],
        [
          { name: 'a', n: 2 },
          { name: 'a', r: 2 },
        ],
        [{ name: 'x' }, undefined],
      ],
      extra: [{ name: 'c' }],
    });
  });

  it('elements without a name never match', () => {
    expect(matchByName([{ type: 'a' }, 'text'], [{ type: 'a' }, 'text'])).toEqual({
      pairs: [
        [{ type: 'a' }, undefined],
        ['text', undefined],
      ],
      extra: [{ type: 'a' }, 'text'],
    });
  });
});

describe('the notification group as the service holds it', () => {
  const read = (response: Record<string, unknown>) =>
    projectRemote(response, { notificationGroupId: 'g' }, WORKFLOW_SHAPE);

  it.each<[string, Record<string, unknown>, unknown]>([
    [
      'the id field',
      { _notificationGroupId: 'g1', notificationGroup: { _id: 'g2' } },
      { notificationGroupId: 'g1' },
    ],
    ['the populated group', { notificationGroup: { _id: 'g2' } }, { notificationGroupId: 'g2' }],
    ['a group that is null', { notificationGroup: null }, {}],
    ['no group at all', {}, {}],
    ['a group that is only an id', { notificationGroup: 'g3' }, {}],
  ])('%s', (_what, response, expected) => {
    expect(read(response)).toEqual(expected);
  });
});

describe('fields a newer server stores under their definition names', () => {
  const template = (stored: Record<string, unknown>) =>
    projectRemote({ template: stored }, { template: { feedId: 'f' } }, STEP_SHAPE);

  it.each<[string, Record<string, unknown>, unknown]>([
    ['the stored name', { _feedId: 'f' }, { template: { feedId: 'f' } }],
    ['the definition name', { feedId: 'f' }, { template: { feedId: 'f' } }],
    ['the definition name first', { feedId: 'f2', _feedId: 'f' }, { template: { feedId: 'f2' } }],
    ['the definition name even when null', { feedId: null, _feedId: 'f' }, { template: { feedId: null } }],
  ])('%s', (_what, stored, expected) => {
    expect(template(stored)).toEqual(expected);
  });
});
