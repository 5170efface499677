import { describe, expect, it } from 'vitest';
import { type PutBack, putBack } from '../../../src/plan/put-back.js';

const set = (path: string, value: unknown): PutBack => ({ segments: path.split('/'), value });
const remove = (path: string): PutBack => ({ segments: path.split('/'), remove: true });

describe('putBack', () => {
  it('sets values, making the objects and lists on the way (a list where an index follows)', () => {
    const root = { name: 'a', steps: [{ name: 'one' }] };
    expect(putBack(root, [set('name', 'b'), set('steps/1/template/subject', 'Hi'), set('tags/0', 'x')])).toBe(
      true,
    );
    expect(root).toEqual({
      name: 'b',
      steps: [{ name: 'one' }, { template: { subject: 'Hi' } }],
      tags: ['x'],
    });
  });

  it('removes by the indexes of the value as given, whatever order the removals come in', () => {
    for (const order of [
      ['steps/0/variants/0', 'steps/0/variants/2', 'steps/1'],
      ['steps/1', 'steps/0/variants/2', 'steps/0/variants/0'],
      ['steps/0/variants/2', 'steps/1', 'steps/0/variants/0'],
    ]) {
      const root = { steps: [{ variants: ['v0', 'v1', 'v2', 'v3'] }, 's1', 's2'] };
      expect(putBack(root, order.map(remove))).toBe(true);
      expect(root).toEqual({ steps: [{ variants: ['v1', 'v3'] }, 's2'] });
    }
  });

  it('removes a key together with what is inside it, in either order', () => {
    const root = { data: { a: { b: 1 }, c: 2 } };
    expect(putBack(root, [remove('data/a/b'), remove('data/a')])).toBe(true);
    expect(root).toEqual({ data: { c: 2 } });
  });

  it('says false when a change has no place: past the end of a list, under a scalar, a key that is not there', () => {
    expect(putBack({ steps: [] }, [set('steps/1', 'x')])).toBe(false);
    expect(putBack({ name: 'a' }, [set('name/first', 'x')])).toBe(false);
    expect(putBack({ steps: ['a'] }, [remove('steps/1')])).toBe(false);
    expect(putBack({ data: {} }, [remove('data/missing')])).toBe(false);
  });

  it('never writes to Object.prototype through a `__proto__` segment; `constructor` is an own key', () => {
    const root: Record<string, unknown> = {};
    expect(putBack(root, [set('__proto__/polluted', true), set('constructor', 'c')])).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(root, 'constructor')).toBe(true);
  });
});
