import { describe, expect, it } from 'vitest';
import {
  type CompileCacheSettings,
  cacheFileName,
  commandKey,
  compileCacheLocation,
  isBuildFolderName,
  shouldSave,
} from '../../../src/cli/compile-cache.js';

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
  it('changes with the chunk, its size and its modification time', () => {
    const name = cacheFileName('cli.cjs', 44_468, 1_795_681_406_161.7);
    expect(name).toBe('cli.cjs-44468-1795681406161.v8');
    expect(cacheFileName('cli.cjs', 44_469, 1_795_681_406_161)).not.toBe(name);
    expect(cacheFileName('cli.cjs', 44_468, 1_795_681_406_162)).not.toBe(name);
  });

  it('never names a path outside its folder', () => {
    expect(cacheFileName('../x.cjs', 1, 1)).toBe('.._x.cjs-1-1.v8');
  });
});
