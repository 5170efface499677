import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import {
  type CompileCacheSettings,
  cacheFileName,
  commandKey,
  compileCacheLocation,
  frameCache,
  GLOBAL_VALUE_OPTIONS,
  isBuildFolderName,
  shouldSave,
  unframeCache,
} from '../../../src/cli/compile-cache.js';
import { buildProgram } from '../../../src/cli/program.js';

const BUILD = '1d0d4214-e5ef-45af-ace6-1b235b5fd8cc';

function settings(overrides: Partial<CompileCacheSettings> = {}): CompileCacheSettings {
  return {
    env: {},
    platform: 'linux',
    home: '/home/dev',
    nodeVersion: 'v20.20.2',
    arch: 'x64',
    buildId: BUILD,
    ...overrides,
  };
}

describe('compileCacheLocation', () => {
  it("is the user's cache folder, keyed by Node's version, the architecture and the build", () => {
    expect(compileCacheLocation(settings())).toEqual({
      root: '/home/dev/.cache/wfsync/compile',
      build: `/home/dev/.cache/wfsync/compile/v20.20.2-x64-${BUILD}`,
    });
  });

  it('follows XDG_CACHE_HOME when it is absolute, and ignores it when it is not', () => {
    expect(compileCacheLocation(settings({ env: { XDG_CACHE_HOME: '/var/cache/dev' } }))).toMatchObject({
      root: '/var/cache/dev/wfsync/compile',
    });
    expect(compileCacheLocation(settings({ env: { XDG_CACHE_HOME: 'relative/cache' } }))).toMatchObject({
      root: '/home/dev/.cache/wfsync/compile',
    });
  });

  it('uses Library/Caches on macOS and LOCALAPPDATA on Windows', () => {
    expect(compileCacheLocation(settings({ platform: 'darwin', home: '/Users/dev' }))).toMatchObject({
      root: '/Users/dev/Library/Caches/wfsync/compile',
    });
    const windows = compileCacheLocation(
      settings({
        platform: 'win32',
        home: 'C:\\Users\\dev',
        env: { LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local' },
      }),
    );
    expect('root' in windows && windows.root.startsWith('C:\\Users\\dev\\AppData\\Local')).toBe(true);
    expect(compileCacheLocation(settings({ platform: 'win32', env: {} }))).toEqual({
      off: 'no cache folder for this user',
    });
  });

  it('goes where WFSYNC_COMPILE_CACHE says, when that is an absolute path', () => {
    expect(compileCacheLocation(settings({ env: { WFSYNC_COMPILE_CACHE: '/tmp/cc' } }))).toEqual({
      root: '/tmp/cc',
      build: `/tmp/cc/v20.20.2-x64-${BUILD}`,
    });
    expect(compileCacheLocation(settings({ env: { WFSYNC_COMPILE_CACHE: 'cc' } }))).toEqual({
      off: 'WFSYNC_COMPILE_CACHE is not an absolute path',
    });
  });

  it.each(['off', 'OFF', '0', 'false', 'no'])('is off with WFSYNC_COMPILE_CACHE=%s', (value) => {
    expect(compileCacheLocation(settings({ env: { WFSYNC_COMPILE_CACHE: value } }))).toEqual({
      off: `WFSYNC_COMPILE_CACHE=${value}`,
    });
  });

  it('is off in CI unless WFSYNC_COMPILE_CACHE names a folder', () => {
    for (const env of [{ CI: 'true' }, { CI: '1' }, { GITHUB_ACTIONS: 'true' }, { GITLAB_CI: 'true' }])
      expect(compileCacheLocation(settings({ env }))).toEqual({
        off: 'in CI (WFSYNC_COMPILE_CACHE=<folder> turns it on)',
      });
    expect(compileCacheLocation(settings({ env: { CI: 'false' } }))).toMatchObject({
      root: expect.any(String),
    });
    expect(
      compileCacheLocation(settings({ env: { CI: 'true', WFSYNC_COMPILE_CACHE: '/tmp/cc' } })),
    ).toMatchObject({
      root: '/tmp/cc',
    });
  });

  it('uses no folder but the default one on Windows, where it cannot check who may write', () => {
    for (const folder of ['C:\\wfsync-cache', '\\\\server\\share'])
      expect(
        compileCacheLocation(
          settings({
            platform: 'win32',
            env: { LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local', WFSYNC_COMPILE_CACHE: folder },
          }),
        ),
      ).toEqual({ off: 'WFSYNC_COMPILE_CACHE names a folder: on Windows only the default one is used' });
  });

  it("is off with Node's own switch, NODE_DISABLE_COMPILE_CACHE, whatever else is set", () => {
    expect(
      compileCacheLocation(
        settings({ env: { NODE_DISABLE_COMPILE_CACHE: '1', WFSYNC_COMPILE_CACHE: '/tmp/cc' } }),
      ),
    ).toEqual({ off: 'NODE_DISABLE_COMPILE_CACHE is set' });
  });

  it('is off without a build id (nothing would tell two builds apart) or without a home', () => {
    expect(compileCacheLocation(settings({ buildId: undefined }))).toEqual({ off: 'no build id' });
    expect(compileCacheLocation(settings({ buildId: '../../etc' }))).toEqual({ off: 'no build id' });
    expect(compileCacheLocation(settings({ buildId: 'proto' }))).toEqual({ off: 'no build id' });
    expect(compileCacheLocation(settings({ home: undefined }))).toEqual({
      off: 'no cache folder for this user',
    });
  });

  it('keeps separators out of the version part of the folder name', () => {
    const location = compileCacheLocation(settings({ nodeVersion: 'v99/../x', arch: 'x 64' }));
    expect('build' in location && location.build.endsWith(`v99_.._x-x_64-${BUILD}`)).toBe(true);
  });
});

describe('isBuildFolderName', () => {
  it('knows the folders compileCacheLocation names, and only those', () => {
    const location = compileCacheLocation(settings());
    expect('build' in location && isBuildFolderName(location.build.split('/').pop()!)).toBe(true);
    expect(isBuildFolderName(`v22.23.3-arm64-${BUILD}`)).toBe(true);
    for (const name of ['notes', `v20-${BUILD}.bak`, `x20.1.0-x64-${BUILD}`, 'v20.1.0-x64-not-a-uuid', BUILD])
      expect(isBuildFolderName(name), name).toBe(false);
  });
});

describe('commandKey', () => {
  it('is the command a run names, wherever the global options stand', () => {
    expect(commandKey(['validate'])).toBe('validate');
    expect(commandKey(['--no-color', 'plan', '--target', 'prod'])).toBe('plan');
    expect(commandKey(['__complete', 'x'])).toBe('other');
  });

  it("skips a global option's value, given as the next word", () => {
    expect(commandKey(['-c', 'ci', 'plan'])).toBe('plan');
    expect(commandKey(['--config', 'staging', '--verbose', 'sync'])).toBe('sync');
    expect(commandKey(['--config=ci', 'plan'])).toBe('plan');
    expect(commandKey(['-c'])).toBe('other');
  });

  it('knows every global option of the program that takes a value, and no other', () => {
    const program = buildProgram(
      {
        stdout: process.stdout,
        stderr: process.stderr,
        env: {},
        cwd: '/',
        commandMark: createCommandMark(() => 'm:'),
        exitCode: 0,
      },
      'all',
    );
    const taking = program.options
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long].filter((flag): flag is string => flag !== undefined));
    expect([...GLOBAL_VALUE_OPTIONS].sort()).toEqual(taking.sort());
  });

  it('is `other` for anything not shaped like a command (a path, a value, nothing)', () => {
    expect(commandKey([])).toBe('other');
    expect(commandKey(['--help'])).toBe('other');
    expect(commandKey(['../../etc/passwd'])).toBe('other');
    expect(commandKey(['Validate'])).toBe('other');
  });
});

describe('shouldSave', () => {
  it("keeps what a command's real work compiled, whatever its outcome", () => {
    expect(shouldSave(['validate'], 0)).toBe(true);
    expect(shouldSave(['validate'], 3)).toBe(true);
    expect(shouldSave(['sync'], 6)).toBe(true);
  });

  it('keeps nothing from help or a usage error, which would stand in for the real work', () => {
    expect(shouldSave(['validate', '--help'], 0)).toBe(false);
    expect(shouldSave(['help', 'plan'], 0)).toBe(false);
    expect(shouldSave(['validate', '-h'], 0)).toBe(false);
    expect(shouldSave(['validate', '--bogus'], 64)).toBe(false);
  });
});

describe('cacheFileName', () => {
  it('is the chunk name, kept to one path segment', () => {
    expect(cacheFileName('cli.cjs')).toBe('cli.cjs.v8');
    expect(cacheFileName('../x.cjs')).toBe('.._x.cjs.v8');
    expect(cacheFileName('a/b\\c.cjs')).toBe('a_b_c.cjs.v8');
  });
});

describe('frameCache / unframeCache', () => {
  const source = new TextEncoder().encode('module.exports = 1;');
  const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
  const framed = frameCache(data, source, crc32);

  it("gives back V8's data for the very text it was made for", () => {
    expect(unframeCache(framed, source, crc32)).toEqual(data);
  });

  it('is a miss for another text, even one of the same length (V8 would only compare lengths)', () => {
    const other = new TextEncoder().encode('module.exports = 2;');
    expect(other.length).toBe(source.length);
    expect(unframeCache(framed, other, crc32)).toBeUndefined();
  });

  it('is a miss for a damaged file: any byte changed, cut short, grown, or not a cache file at all', () => {
    for (const at of [0, 5, 9, 13, 16, 100, framed.length - 1]) {
      const damaged = framed.slice();
      damaged[at] = damaged[at]! ^ 0x40;
      expect(unframeCache(damaged, source, crc32), `byte ${at}`).toBeUndefined();
    }
    expect(unframeCache(framed.subarray(0, framed.length - 1), source, crc32)).toBeUndefined();
    expect(unframeCache(Uint8Array.of(...framed, 0), source, crc32)).toBeUndefined();
    expect(unframeCache(new Uint8Array(8), source, crc32)).toBeUndefined();
    expect(unframeCache(new TextEncoder().encode('planted'), source, crc32)).toBeUndefined();
  });

  it('reads a frame inside a larger buffer (as Node hands out small files)', () => {
    const pool = new Uint8Array(framed.length + 24);
    pool.set(framed, 8);
    expect(unframeCache(pool.subarray(8, 8 + framed.length), source, crc32)).toEqual(data);
  });
});
