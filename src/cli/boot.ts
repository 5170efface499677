/**
 * What bin/wfsync.cjs runs: loads the CLI's chunks (dist/*.cjs) with V8's code cache when one may be kept
 * (compile-cache.ts says where and whether), runs main(), then saves the code the command compiled.
 *
 * Built as its own entry (dist/boot.cjs) that imports nothing but Node's built-ins (scripts/build.mjs checks), so no
 * chunk is ever loaded twice: once by Node's require and once by the loader here. Every failure of the cache (a
 * folder that cannot be made or is not private, a file that cannot be read or written, data V8 rejects) falls back
 * to compiling as usual, silently: the cache only ever saves time. `--verbose` loads the chunks with Node's own
 * require, so stack traces go through the source maps.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
import {
  type CompileCacheLocation,
  cacheFileName,
  commandKey,
  compileCacheLocation,
  isBuildFolderName,
  KEEP_OTHER_BUILDS,
  shouldSave,
} from './compile-cache.js';
import type { main as Main } from './main.js';

declare const __WFSYNC_BUILD_ID__: string | undefined;

type CliModule = { main: typeof Main };

/** Run the CLI with `args`; the exit code for bin/wfsync.cjs to set. */
export async function runCli(args: readonly string[]): Promise<number> {
  const dist = dirname(fileURLToPath(import.meta.url));
  const entry = join(dist, 'cli.cjs');
  const folder = args.includes('--verbose') ? undefined : openCacheFolder(args);
  if (folder === undefined) {
    const { main } = createRequire(entry)(entry) as CliModule;
    return main(args);
  }
  const loader = new ChunkLoader(dist, folder);
  const { main } = loader.load(entry) as CliModule;
  const exitCode = await main(args);
  if (shouldSave(args, exitCode)) loader.save();
  return exitCode;
}

/** This build's cache folder for this command, made private and checked; undefined when there must be none. */
function openCacheFolder(args: readonly string[]): string | undefined {
  const location = compileCacheLocation({
    env: process.env,
    platform: process.platform,
    home: safeHome(),
    nodeVersion: process.version,
    arch: process.arch,
    buildId: typeof __WFSYNC_BUILD_ID__ === 'string' ? __WFSYNC_BUILD_ID__ : undefined,
  });
  if ('off' in location) return undefined;
  try {
    const fresh = !isPrivateFolder(location.build);
    const folder = join(location.build, commandKey(args));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (![location.root, location.build, folder].every(isPrivateFolder)) return undefined;
    // Only once the folders are known to be the user's own, and only folders named as this code names them.
    if (fresh) pruneOtherBuilds(location);
    return folder;
  } catch {
    return undefined;
  }
}

function safeHome(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * A real folder (not a link), owned by this user and writable by nobody else: only then may what it holds be run.
 * On Windows the per-user LOCALAPPDATA is private already and POSIX modes say nothing.
 */
function isPrivateFolder(path: string): boolean {
  try {
    const stat = lstatSync(path);
    if (!stat.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Keep the newest few of the other builds' folders (a development tree makes a new build on every test run). Only
 * real folders named like a build's are candidates: whatever else `WFSYNC_COMPILE_CACHE` may hold is left alone.
 */
function pruneOtherBuilds(location: CompileCacheLocation): void {
  const current = basename(location.build);
  const others: Array<{ name: string; mtime: number }> = [];
  for (const name of readdirSync(location.root)) {
    if (name === current || !isBuildFolderName(name)) continue;
    try {
      const stat = lstatSync(join(location.root, name));
      if (stat.isDirectory()) others.push({ name, mtime: stat.mtimeMs });
    } catch {
      // Removed meanwhile by another run.
    }
  }
  others.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of others.slice(KEEP_OTHER_BUILDS)) {
    rmSync(join(location.root, name), { recursive: true, force: true });
  }
}

interface LoadedChunk {
  exports: unknown;
}

/**
 * Loads dist's CommonJS chunks the way Node's require would (same wrapper, same require for packages and built-ins,
 * cycles answered with the partly filled exports), but compiled with vm.Script and its cached data. Chunks require
 * each other by relative path (`./trigger-HASH.cjs`); anything else goes to Node's require.
 */
class ChunkLoader {
  private readonly chunks = new Map<string, LoadedChunk>();
  /** Scripts compiled without usable cached data, with the file their cache goes to. */
  private readonly unsaved: Array<{ script: Script; file: string }> = [];

  constructor(
    private readonly dist: string,
    private readonly folder: string,
  ) {}

  load(path: string): unknown {
    const known = this.chunks.get(path);
    if (known) return known.exports;
    const source = readFileSync(path, 'utf8');
    const { size, mtimeMs } = statSync(path);
    const cacheFile = join(this.folder, cacheFileName(basename(path), size, mtimeMs));
    const cachedData = readCache(cacheFile);
    const script = new Script(wrap(source), {
      filename: path,
      ...(cachedData ? { cachedData } : {}),
      // `import()` in a chunk (none today) would resolve as in any module of the main context.
      ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
        ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
        : {}),
    });
    if (!cachedData || script.cachedDataRejected) this.unsaved.push({ script, file: cacheFile });
    const chunk: LoadedChunk = { exports: {} };
    this.chunks.set(path, chunk);
    const packages = createRequire(path);
    const require = Object.assign((id: string) => this.require(path, id, packages), {
      resolve: packages.resolve,
      cache: packages.cache,
      main: packages.main,
      extensions: packages.extensions,
    });
    const wrapper = script.runInThisContext() as (
      exports: unknown,
      require: NodeJS.Require,
      module: LoadedChunk,
      filename: string,
      dirname: string,
    ) => void;
    wrapper.call(chunk.exports, chunk.exports, require as NodeJS.Require, chunk, path, dirname(path));
    return chunk.exports;
  }

  private require(from: string, id: string, packages: NodeJS.Require): unknown {
    if (id.startsWith('./') && id.endsWith('.cjs')) {
      const path = join(dirname(from), id);
      if (path.startsWith(this.dist + sep) && !path.slice(this.dist.length + 1).includes(sep))
        return this.load(path);
    }
    return packages(id);
  }

  /** Write the code cache of every chunk that had none (or had one V8 turned down), the functions that ran included. */
  save(): void {
    for (const { script, file } of this.unsaved) {
      try {
        writeAtomically(file, script.createCachedData());
      } catch {
        // A full disk or a folder removed meanwhile: the next run compiles again.
      }
    }
  }
}

/** The cached data in `file`, or undefined when there is none (the folder is private: nobody else put it there). */
function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Another run may read `file` at any moment: it sees the old whole file or the new whole file, never half of one. */
function writeAtomically(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
