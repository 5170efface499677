import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../../src/cache/entry.js';
import { CACHE_FORMAT } from '../../../src/cache/key.js';
import {
  parseStoredCache,
  readStoredCache,
  serializeCache,
  writeStoredCache,
} from '../../../src/cache/store.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const tempDir = useTempProjects('wfsync-cache-store-');

const ENTRIES = new Map<string, CacheEntry>([
  ['workflows/a.yaml', { file: 'workflows/a.yaml', hash: 'h1', identifier: 'a' }],
  ['__proto__', { file: '__proto__', hash: 'h2' }],
  ['workflows/b.yaml', { file: 'b.yaml', hash: 'h3' }],
]);

describe('parseStoredCache', () => {
  it('gives back the entries serializeCache wrote, under the same key', () => {
    const parsed = parseStoredCache(serializeCache('k1', ENTRIES), 'k1');
    expect(parsed.discarded).toBeUndefined();
    expect([...parsed.entries.keys()]).toEqual(['workflows/a.yaml', '__proto__', 'workflows/b.yaml']);
    expect(parsed.entries.get('workflows/a.yaml')).toEqual({
      path: 'workflows/a.yaml',
      hash: 'h1',
      identifier: 'a',
    });
    expect(parsed.entries.get('workflows/b.yaml')).toEqual({
      path: 'workflows/b.yaml',
      file: 'b.yaml',
      hash: 'h3',
    });
  });

  it('leaves out items it cannot look up', () => {
    const text = JSON.stringify({
      ...(JSON.parse(serializeCache('k1', new Map())) as object),
      entries: [{ path: 'a.yaml', hash: 'h' }, { hash: 'no path' }, { path: 7, hash: 'h' }, 'x', null],
    });
    expect(parseStoredCache(text, 'k1')).toEqual({
      entries: new Map([['a.yaml', { path: 'a.yaml', hash: 'h' }]]),
    });
  });

  it('discards, saying why, a file that is not JSON, not a cache, or another key or format', () => {
    const text = serializeCache('k1', ENTRIES);
    const other = JSON.parse(text) as Record<string, unknown>;
    const cases: Array<[string, string]> = [
      ['', 'not valid JSON'],
      [text.slice(0, text.length / 2), 'not valid JSON'],
      [
        text.replace('"entries":[', `"deep":${'['.repeat(1e5)}${']'.repeat(1e5)},"entries":[`),
        'nested deeper than 128 levels',
      ],
      ['[]', 'not a wfsync validate cache'],
      ['{"entries": {}}', 'not a wfsync validate cache'],
      [JSON.stringify({ ...other, wfsync: 'state' }), 'not a wfsync validate cache'],
      [JSON.stringify({ ...other, entries: {} }), 'not a wfsync validate cache'],
      [
        JSON.stringify({ ...other, format: CACHE_FORMAT + 1 }),
        'written by another wfsync build, Node.js or rule settings',
      ],
    ];
    for (const [stored, why] of cases) {
      expect(parseStoredCache(stored, 'k1'), stored.slice(0, 40)).toEqual({
        entries: new Map(),
        discarded: why,
      });
    }
    expect(parseStoredCache(text, 'k2')).toEqual({
      entries: new Map(),
      discarded: 'written by another wfsync build, Node.js or rule settings',
    });
  });
});

describe('readStoredCache', () => {
  it('a missing file is an empty cache, with nothing to say', () => {
    expect(readStoredCache(path.join(tempDir(), 'none/validate.json'), 'k')).toEqual({ entries: new Map() });
  });

  it('an unreadable one is an empty cache, with the reason', () => {
    const dir = tempDir();
    const result = readStoredCache(dir, 'k'); // a directory
    expect(result.entries.size).toBe(0);
    expect(result.discarded).toMatch(/^unreadable: is a directory \(EISDIR/);
  });

  it('reads what writeStoredCache wrote', async () => {
    const file = path.join(tempDir(), '.wfsync/cache/validate.json');
    await writeStoredCache(file, serializeCache('k', ENTRIES));
    expect(readStoredCache(file, 'k').entries.size).toBe(3);
  });
});

describe('writeStoredCache', () => {
  it('creates the directory and replaces the file whole, leaving no temp file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'deep/er/validate.json');
    await writeStoredCache(file, 'first');
    await writeStoredCache(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(path.dirname(file))).toEqual(['validate.json']);
  });

  it('throws the OS error when it cannot write, leaving the old file and no temp file', async () => {
    const dir = tempDir();
    // A directory where the file should be: the temp file is written, the rename fails.
    const file = path.join(dir, 'validate.json');
    mkdirSync(path.join(file, 'inside'), { recursive: true });
    await expect(writeStoredCache(file, 'x')).rejects.toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir)).toEqual(['validate.json']);
    // A file where the directory should be.
    writeFileSync(path.join(dir, 'plain'), 'not a directory');
    await expect(writeStoredCache(path.join(dir, 'plain/validate.json'), 'x')).rejects.toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) }),
    );
    expect(existsSync(path.join(dir, 'plain'))).toBe(true);
    expect(readFileSync(path.join(dir, 'plain'), 'utf8')).toBe('not a directory');
  });
});
