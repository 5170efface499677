/**
 * What bin/wfsync.cjs runs: loads the CLI's chunks (dist/*.cjs) with V8's code cache when one may be kept
 * (compile-cache.ts says where and whether), runs main(), then saves the code the command compiled.
 *
 * Built as its own entry (dist/boot.cjs) that imports nothing but Node's built-ins (scripts/build.mjs checks), so no
 * chunk is ever loaded twice: once by Node's require and once by the loader here. Every failure of the cache (a
 * folder that cannot be made or is not private, a file that cannot be read or written, data whose checksums do not
 * match or that V8 rejects) falls back to compiling as usual, silently: the cache only ever saves time. `--verbose`
 * loads the chunks with Node's own require, so stack traces go through the source maps.
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
import { crc32 } from 'node:zlib';
import {
  type Checksum,
  type CompileCacheLocation,
  cacheFileName,
  commandKey,
  compileCacheLocation,
  frameCache,
  isBuildFolderName,
  KEEP_OTHER_BUILDS,
  shouldSave,
  unframeCache,
} from './compile-cache.js';
import type { main as Main } from './main.js';

declare const __WFSYNC_BUILD_ID__: string | undefined;

type CliModule = { main: typeof Main };

/** Run the CLI with `args`; the exit code for bin/wfsync.cjs to set. */
export async function runCli(args: readonly string[]): Promise<number> {
  // dist/boot.cjs is CommonJS: __dirname is there already (import.meta.url, as the sources under vitest know it,
  // would cost a URL made from the path and parsed back on every start-up).
  const dist = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const entry = join(dist, 'cli.cjs');
  const folder = args.includes('--verbose') ? undefined : openCacheFolder(args);
  if (folder === undefined) {
    const { main } = createRequire(entry)(entry) as CliModule;
    return main(args);
  }
  const loader = new ChunkLoader(dist, folder);
  const { main } = loader.load(entry) as CliModule;
  const exitCode = await main(args);
  if (shouldSave(args, exitCode)) {
    // The first run of each outcome (all valid; errors found; a failure) saves every chunk again: its data then
    // holds what that run compiled besides what the cache already had (a pre-commit hook's first commit with an
    // invalid file adds the error paths once, not on every such commit). Otherwise only chunks that had no data.
    const outcomes = new OutcomesSeen(folder);
    loader.save(outcomes.isNew(exitCode) ? 'all' : 'missing');
    outcomes.remember(exitCode);
  }
  return exitCode;
}

/**
 * The exit codes whose runs already saved this command's cache, in a small file beside it (written like the cache
 * files; a file that is not the user's own, or unreadable, counts as empty: at worst one save too many).
 */
class OutcomesSeen {
  private readonly file: string;
  private readonly seen: Set<string>;

  constructor(folder: string) {
    this.file = join(folder, 'outcomes');
    this.seen = new Set(readPrivateFile(this.file)?.toString('latin1').split(',').filter(Boolean) ?? []);
  }

  isNew(exitCode: number): boolean {
    return !this.seen.has(String(exitCode));
  }

  remember(exitCode: number): void {
    if (!this.isNew(exitCode)) return;
    this.seen.add(String(exitCode));
    try {
      writeAtomically(this.file, Buffer.from([...this.seen].sort().join(','), 'latin1'));
    } catch {
      // The next run of this outcome saves again.
    }
  }
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
    // Each level made (never through a link: a link is not a private folder) and checked before the next.
    mkdirSync(location.root, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(location.root)) return undefined;
    const fresh = makePrivateFolder(location.build);
    if (fresh === undefined) return undefined;
    const folder = join(location.build, commandKey(args));
    if (makePrivateFolder(folder) === undefined) return undefined;
    // Only folders named as this code names them, and only once the root is known to be the user's own.
    if (fresh) pruneOtherBuilds(location);
    return folder;
  } catch {
    return undefined;
  }
}

/** `path` made if missing (true) or found (false), either way a private folder; undefined when it is not one. */
function makePrivateFolder(path: string): boolean | undefined {
  let made = true;
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    made = false;
  }
  return isPrivateFolder(path) ? made : undefined;
}

function safeHome(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * A real folder (not a link), owned by this user and open to nobody else: only then may what it holds be run. On
 * Windows only the per-user LOCALAPPDATA default is used (compile-cache.ts), and POSIX modes say nothing.
 */
function isPrivateFolder(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() && isPrivate(stat);
  } catch {
    return false;
  }
}

function isPrivate(stat: Stats): boolean {
  if (process.platform === 'win32') return true;
  return stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
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
export class ChunkLoader {
  private readonly chunks = new Map<string, LoadedChunk>();
  /** Every script compiled, with the file its cache goes to and whether it came with usable data. */
  private readonly scripts: Array<{ script: Script; file: string; source: Uint8Array; cached: boolean }> = [];
  private chunkRequire: NodeJS.Require | undefined;

  constructor(
    private readonly dist: string,
    private readonly folder: string,
    private readonly checksum: Checksum = crc32,
  ) {}

  load(path: string): unknown {
    const known = this.chunks.get(path);
    if (known) return known.exports;
    const bytes = readFileSync(path);
    const cacheFile = join(this.folder, cacheFileName(basename(path)));
    const cachedData = readCache(cacheFile, bytes, this.checksum);
    const script = new Script(wrap(bytes.toString('utf8')), {
      filename: path,
      ...(cachedData ? { cachedData } : {}),
      // `import()` in a chunk (none today) would resolve as in any module of the main context.
      ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
        ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
        : {}),
    });
    this.scripts.push({
      script,
      file: cacheFile,
      source: bytes,
      cached: cachedData !== undefined && !script.cachedDataRejected,
    });
    const chunk: LoadedChunk = { exports: {} };
    this.chunks.set(path, chunk);
    const wrapper = script.runInThisContext() as (
      exports: unknown,
      require: NodeJS.Require,
      module: LoadedChunk,
      filename: string,
      dirname: string,
    ) => void;
    try {
      wrapper.call(chunk.exports, chunk.exports, this.requireFor(path), chunk, path, dirname(path));
    } catch (error) {
      // As Node's require: a chunk that failed is not loaded, and the next require runs it again.
      this.chunks.delete(path);
      throw error;
    }
    return chunk.exports;
  }

  /**
   * The `require` every chunk is given: made once, from the first chunk's path, since every chunk lives in dist/
   * and so resolves packages alike (a require per chunk cost each one a module-path search of its own).
   */
  private requireFor(path: string): NodeJS.Require {
    if (this.chunkRequire === undefined) {
      const packages = createRequire(path);
      this.chunkRequire = Object.assign((id: string) => this.require(id, packages), {
        resolve: packages.resolve,
        cache: packages.cache,
        main: packages.main,
        extensions: packages.extensions,
      }) as NodeJS.Require;
    }
    return this.chunkRequire;
  }

  /** A sibling chunk (`./NAME.cjs`, no other separator in it: nothing outside dist/) through this loader; the rest to Node. */
  private require(id: string, packages: NodeJS.Require): unknown {
    if (id.startsWith('./') && id.endsWith('.cjs') && !/[\\/]/.test(id.slice(2)))
      return this.load(this.dist + sep + id.slice(2));
    return packages(id);
  }

  /**
   * Write the code cache of the chunks that had none (or had data V8 turned down), or with `all` of every chunk
   * loaded: each time with the functions that ran included.
   */
  save(which: 'missing' | 'all' = 'missing'): void {
    for (const { script, file, source, cached } of this.scripts) {
      if (cached && which === 'missing') continue;
      try {
        writeAtomically(file, frameCache(script.createCachedData(), source, this.checksum));
      } catch {
        // A full disk or a folder removed meanwhile: the next run compiles again.
      }
    }
  }
}

/**
 * V8's data for the chunk whose text is `source`, from `file` when it is a regular file (not a link, one name)
 * private to the user, whole, and made for this very text; undefined otherwise.
 */
function readCache(file: string, source: Uint8Array, checksum: Checksum): Uint8Array | undefined {
  const bytes = readPrivateFile(file);
  return bytes === undefined ? undefined : unframeCache(bytes, source, checksum);
}

/** `file`'s bytes when it is a regular file (not a link, one name) private to the user; undefined otherwise. */
function readPrivateFile(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1 || !isPrivate(stat)) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Another run may read `file` at any moment: it sees the old whole file or the new whole file, never half of one
 * (written aside, flushed, then renamed over). The temporary name is this run's alone.
 */
function writeAtomically(file: string, data: Uint8Array): void {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Closed already.
    }
    rmSync(temporary, { force: true });
    throw error;
  }
}
