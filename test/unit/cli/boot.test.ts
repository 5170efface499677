import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkLoader } from '../../../src/cli/boot.js';

/** A dist folder of CommonJS chunks, and a private cache folder beside it. */
function setup(chunks: Record<string, string>): { dist: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'wfsync-boot-'));
  const dist = join(root, 'dist');
  const cache = join(root, 'cache');
  mkdirSync(dist);
  mkdirSync(cache, { mode: 0o700 });
  for (const [name, text] of Object.entries(chunks)) writeFileSync(join(dist, name), text);
  return { dist, cache };
}

describe('ChunkLoader', () => {
  it('loads chunks that require each other as Node would: one instance each, cycles with partial exports', () => {
    const { dist, cache } = setup({
      'a.cjs':
        'exports.name = "a"; const b = require("./b.cjs"); exports.fromB = b.name; exports.bSawA = b.sawA;',
      'b.cjs':
        'const a = require("./a.cjs"); exports.name = "b"; exports.sawA = a.name; exports.path = require("node:path").sep;',
      'c.cjs': 'module.exports = { same: require("./a.cjs") === require("./a.cjs") };',
    });
    const loader = new ChunkLoader(dist, cache);
    expect(loader.load(join(dist, 'a.cjs'))).toMatchObject({ name: 'a', fromB: 'b', bSawA: 'a' });
    expect(loader.load(join(dist, 'c.cjs'))).toEqual({ same: true });
    expect(loader.load(join(dist, 'b.cjs'))).toMatchObject({ path: sep });
  });

  it('runs a chunk that threw again on the next require, as Node does (no half-filled exports kept)', () => {
    const { dist, cache } = setup({
      'flaky.cjs':
        'globalThis.__wfsyncBootTries = (globalThis.__wfsyncBootTries ?? 0) + 1;\n' +
        'if (globalThis.__wfsyncBootTries === 1) throw new Error("first time");\nexports.ok = true;',
    });
    const loader = new ChunkLoader(dist, cache);
    expect(() => loader.load(join(dist, 'flaky.cjs'))).toThrow('first time');
    expect(loader.load(join(dist, 'flaky.cjs'))).toEqual({ ok: true });
  });

  it('writes each compiled chunk to the cache, and a second loader reads it back with the same results', () => {
    const { dist, cache } = setup({
      'main.cjs': 'const helper = require("./helper.cjs"); exports.answer = () => helper.double(21);',
      'helper.cjs': 'exports.double = (n) => n * 2;',
    });
    const first = new ChunkLoader(dist, cache);
    expect((first.load(join(dist, 'main.cjs')) as { answer: () => number }).answer()).toBe(42);
    first.save();
    expect(readdirSync(cache).sort()).toEqual(['helper.cjs.v8', 'main.cjs.v8']);
    const second = new ChunkLoader(dist, cache);
    expect((second.load(join(dist, 'main.cjs')) as { answer: () => number }).answer()).toBe(42);
  });

  it('leaves packages and anything not a sibling chunk to Node', () => {
    const { dist, cache } = setup({
      'uses.cjs':
        'exports.os = typeof require("node:os").platform; exports.escape = (() => { try { return require("./../x.cjs"); } catch (e) { return e.code; } })();',
    });
    const loaded = new ChunkLoader(dist, cache).load(join(dist, 'uses.cjs'));
    expect(loaded).toEqual({ os: 'function', escape: 'MODULE_NOT_FOUND' });
  });
});
