import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../../src/cache/entry.js';
import {
  describeCacheUse,
  openValidateCache,
  saveValidateCache,
  type ValidateCache,
} from '../../../src/cache/validate-cache.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const tempDir = useTempProjects('wfsync-validate-cache-');

const SETTINGS = { rules: { severities: {} }, limits: { ...DEFAULT_LOAD_LIMITS } };
const ENTRIES = new Map<string, CacheEntry>([['workflows/a.yaml', { file: 'workflows/a.yaml', hash: 'h' }]]);

function open(root: string, cwd = root, location?: string): ValidateCache {
  return openValidateCache({ cwd, root, location, ...SETTINGS });
}

describe('openValidateCache', () => {
  it('lives under the project root by default, at --cache-location (from the working directory) otherwise', () => {
    const root = tempDir();
    const cwd = path.join(root, 'workflows');
    expect(open(root, cwd).file).toBe(path.join(root, '.wfsync/cache/validate.json'));
    expect(open(root, cwd, 'my.json').file).toBe(path.join(cwd, 'my.json'));
    expect(open(root, cwd, path.join(root, 'abs.json')).file).toBe(path.join(root, 'abs.json'));
  });

  it('reads back what was saved under the same settings, and nothing under others', async () => {
    const root = tempDir();
    expect(await saveValidateCache(open(root), { entries: ENTRIES, changed: true }, root)).toBeUndefined();
    const again = open(root);
    expect([...again.entries.keys()]).toEqual(['workflows/a.yaml']);
    expect(again.discarded).toBeUndefined();
    const other = openValidateCache({ cwd: root, root, ...SETTINGS, rules: { severities: { x: 'off' } } });
    expect(other.entries.size).toBe(0);
    expect(other.discarded).toBe('written by another wfsync build, Node.js or rule settings');
  });
});

describe('saveValidateCache', () => {
  it('writes nothing when nothing changed, and rewrites a file it could not use', async () => {
    const root = tempDir();
    const cache = open(root);
    expect(await saveValidateCache(cache, { entries: ENTRIES, changed: false }, root)).toBeUndefined();
    expect(existsSync(cache.file)).toBe(false);
    mkdirSync(path.dirname(cache.file), { recursive: true });
    writeFileSync(cache.file, 'garbage');
    const damaged = open(root);
    expect(damaged.discarded).toBe('not valid JSON');
    await saveValidateCache(damaged, { entries: ENTRIES, changed: false }, root);
    expect(open(root).entries.size).toBe(1);
  });

  it('returns one warning line when the file cannot be written', async () => {
    const root = tempDir();
    writeFileSync(path.join(root, 'blocker'), '');
    const cache = open(root, root, 'blocker/validate.json');
    const warning = await saveValidateCache(cache, { entries: ENTRIES, changed: true }, root);
    expect(warning).toMatch(/^wfsync: could not write the validate cache blocker\/validate\.json: .+\n$/);
    expect(warning?.split('\n')).toHaveLength(2);
  });

  it('removes temp files a killed run left, not those of a run still writing', async () => {
    const root = tempDir();
    const cache = open(root);
    mkdirSync(path.dirname(cache.file), { recursive: true });
    const stale = `${cache.file}.999.0a1b2c3d.tmp`;
    const fresh = `${cache.file}.998.0a1b2c3e.tmp`;
    writeFileSync(stale, '');
    writeFileSync(fresh, '');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    await saveValidateCache(cache, { entries: ENTRIES, changed: true }, root);
    expect(readdirSync(path.dirname(cache.file)).sort()).toEqual(
      [path.basename(fresh), 'validate.json'].sort(),
    );
  });
});

describe('describeCacheUse', () => {
  it('counts with thousands separators, names the file, and says why a file was not used', () => {
    const root = tempDir();
    const cache = open(root);
    expect(describeCacheUse(cache, 9998, 10_000, root)).toBe(
      'wfsync: cache: 9,998 of 10,000 files unchanged (.wfsync/cache/validate.json)\n',
    );
    expect(describeCacheUse(cache, 0, 1, path.join(root, 'workflows'))).toBe(
      'wfsync: cache: 0 of 1 file unchanged (../.wfsync/cache/validate.json)\n',
    );
    expect(describeCacheUse({ ...cache, discarded: 'not valid JSON' }, 0, 2, root)).toBe(
      'wfsync: cache: 0 of 2 files unchanged (.wfsync/cache/validate.json was not valid JSON: rebuilt)\n',
    );
  });
});
