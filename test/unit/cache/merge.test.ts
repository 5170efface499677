import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../../src/cache/entry.js';
import { buildCacheMerge, type SeenFile } from '../../../src/cache/merge.js';

const ROOT = '/project';
const entry = (file: string, hash = `hash of ${file}`): CacheEntry => ({ file, hash });
/** As stored: JSON values, the display path left out when it is the entry path. */
const stored = (...files: string[]) =>
  new Map<string, unknown>(files.map((file) => [file, { hash: `hash of ${file}` }]));

describe('buildCacheMerge', () => {
  it('nothing to write when every file hit and nothing else was stored', () => {
    const seen = new Map<string, SeenFile>([
      ['workflows/a.yaml', { entry: entry('workflows/a.yaml'), hit: true }],
      ['workflows/b.yaml', { entry: entry('workflows/b.yaml'), hit: true }],
    ]);
    const merge = buildCacheMerge({
      root: ROOT,
      stored: stored('workflows/a.yaml', 'workflows/b.yaml'),
      seen,
      searched: ['/project/workflows'],
    });
    expect(merge.changed).toBe(false);
    expect([...merge.entries.keys()]).toEqual(['workflows/a.yaml', 'workflows/b.yaml']);
  });

  it('a new entry, or a file that may no longer be cached, is a change', () => {
    const base = { root: ROOT, stored: stored('workflows/a.yaml'), searched: ['/project/workflows'] };
    const fresh = new Map<string, SeenFile>([
      ['workflows/a.yaml', { entry: entry('workflows/a.yaml', 'new'), hit: false }],
    ]);
    expect(buildCacheMerge({ ...base, seen: fresh })).toEqual({
      entries: new Map([['workflows/a.yaml', entry('workflows/a.yaml', 'new')]]),
      changed: true,
    });
    const uncacheable = new Map<string, SeenFile>([['workflows/a.yaml', undefined]]);
    expect(buildCacheMerge({ ...base, seen: uncacheable })).toEqual({ entries: new Map(), changed: true });
    // Not cacheable now, and never stored: nothing changes.
    expect(buildCacheMerge({ ...base, stored: new Map(), seen: uncacheable }).changed).toBe(false);
  });

  it('drops stored files the run did not see inside the directories it searched, keeps the others', () => {
    const seen = new Map<string, SeenFile>([
      ['workflows/a.yaml', { entry: entry('workflows/a.yaml'), hit: true }],
    ]);
    const merge = buildCacheMerge({
      root: ROOT,
      stored: stored(
        'workflows/a.yaml',
        'workflows/deleted.yaml',
        'workflows/nested/deleted.yaml',
        'workflows-old/kept.yaml',
        'other/kept.yaml',
        '../outside/kept.yaml',
      ),
      seen,
      searched: ['/project/workflows'],
    });
    expect([...merge.entries.keys()]).toEqual([
      'workflows/a.yaml',
      'workflows-old/kept.yaml',
      'other/kept.yaml',
      '../outside/kept.yaml',
    ]);
    expect(merge.entries.get('other/kept.yaml')).toEqual(entry('other/kept.yaml'));
    expect(merge.changed).toBe(true);
  });

  it('a run over single files drops nothing it did not see; one over a parent of the root drops everything', () => {
    const seen = new Map<string, SeenFile>([
      ['workflows/a.yaml', { entry: entry('workflows/a.yaml'), hit: true }],
    ]);
    const all = stored('workflows/a.yaml', 'workflows/b.yaml', '../outside/c.yaml');
    const files = buildCacheMerge({ root: ROOT, stored: all, seen, searched: [] });
    expect([...files.entries.keys()]).toEqual(['workflows/a.yaml', 'workflows/b.yaml', '../outside/c.yaml']);
    expect(files.changed).toBe(false);
    const parent = buildCacheMerge({ root: ROOT, stored: all, seen, searched: ['/'] });
    expect([...parent.entries.keys()]).toEqual(['workflows/a.yaml']);
  });

  it('drops a stored entry that is malformed', () => {
    const merge = buildCacheMerge({
      root: ROOT,
      stored: new Map<string, unknown>([['other/x.yaml', { hash: 5 }]]),
      seen: new Map(),
      searched: [],
    });
    expect(merge).toEqual({ entries: new Map(), changed: true });
  });

  it('keeps at most `max` entries, but always every file of the run', () => {
    const seen = new Map<string, SeenFile>(
      ['a', 'b', 'c'].map((name) => [`w/${name}.yaml`, { entry: entry(`w/${name}.yaml`), hit: false }]),
    );
    const others = stored('x/1.yaml', 'x/2.yaml', 'x/3.yaml');
    const capped = buildCacheMerge({ root: ROOT, stored: others, seen, searched: [], max: 4 });
    expect([...capped.entries.keys()]).toEqual(['w/a.yaml', 'w/b.yaml', 'w/c.yaml', 'x/1.yaml']);
    const small = buildCacheMerge({ root: ROOT, stored: others, seen, searched: [], max: 2 });
    expect([...small.entries.keys()]).toEqual(['w/a.yaml', 'w/b.yaml', 'w/c.yaml']);
  });
});
