/**
 * Where the CLI keeps V8's compiled code between runs, and whether it may (boot.ts does the loading).
 *
 * Most of a short `wfsync validate` is not validating: it is V8 compiling wfsync's code, once when a chunk loads and
 * again, function by function, the first time each runs. boot.ts compiles the CLI's chunks with vm.Script and, once
 * the command has run, writes each chunk's code cache, the functions that ran included, so the next run of the same
 * command starts with them compiled. Node 20 has no cache of its own; Node's module.enableCompileCache (22.1 and
 * later) keeps only what a chunk compiles as it loads, and saves far less (`npm run bench:startup` shows the three side
 * by side: this cache stays while it saves at least 10% of a short run over Node's).
 *
 * The cache is code wfsync will run, and V8 checks little of what it is given (its version, its flags and the
 * lengths; a damaged file can crash it), so:
 * - it lives where only the user can write: the user's cache directory, in folders that must be real folders (not
 *   links) owned by the user and open to nobody else (made 0700), holding files that must be the same (0600, one
 *   link, not a link), all checked before anything is read;
 * - each file carries a checksum of the chunk's text and of the data (frameCache below), checked before V8 sees the
 *   data: a file damaged on disk, or made for another text of the same length, is a miss, never a crash;
 * - in CI it is off unless WFSYNC_COMPILE_CACHE names a folder: a job's machine is fresh (no later run would read it)
 *   or shared between projects and forks (whose jobs run as the same user);
 * - on Windows only the default folder, under LOCALAPPDATA, is used: wfsync cannot check there who may write.
 * It is keyed by Node's version and architecture and by the build's random id (a rebuilt or upgraded wfsync never
 * reads an older build's cache), then by command (what `validate` compiles is not what `plan` compiles). Old builds'
 * folders are removed when a new one is made.
 *
 * `NODE_DISABLE_COMPILE_CACHE` (Node's own switch) or `WFSYNC_COMPILE_CACHE=off` turns it off;
 * `WFSYNC_COMPILE_CACHE=<absolute folder>` puts it elsewhere.
 */
import { join } from 'node:path';

export interface CompileCacheSettings {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** The user's home folder, or undefined when the system has none for this user. */
  home: string | undefined;
  nodeVersion: string;
  arch: string;
  buildId: string | undefined;
}

/** The folders of one build's cache: `root` holds every build's, `build` this build's. */
export interface CompileCacheLocation {
  root: string;
  build: string;
}

/** A build's id: the random UUID scripts/build.mjs gives it. */
const BUILD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether a folder name in the cache root is one compileCacheLocation makes (`v20.20.2-x64-<build id>`): the only
 * entries pruning may remove.
 */
export function isBuildFolderName(name: string): boolean {
  const match = /^v\d[\w.-]*-([0-9a-f-]{36})$/.exec(name);
  return match !== null && BUILD_ID.test(match[1]!);
}

/** How many builds' caches to keep besides the current one (a development tree rebuilds on every test run). */
export const KEEP_OTHER_BUILDS = 2;

/**
 * Where this build's compile cache goes, or why there is none. Pure: everything it depends on is in `settings`.
 * No build id (running from the sources, under vitest): no cache, since nothing would tell two builds apart.
 */
export function compileCacheLocation(settings: CompileCacheSettings): CompileCacheLocation | { off: string } {
  const { env } = settings;
  if (env.NODE_DISABLE_COMPILE_CACHE) return { off: 'NODE_DISABLE_COMPILE_CACHE is set' };
  const setting = env.WFSYNC_COMPILE_CACHE;
  if (setting !== undefined && /^(off|0|false|no)$/i.test(setting))
    return { off: `WFSYNC_COMPILE_CACHE=${setting}` };
  if (settings.buildId === undefined || !BUILD_ID.test(settings.buildId)) return { off: 'no build id' };
  let root: string;
  if (setting !== undefined && setting !== '') {
    if (settings.platform === 'win32')
      return { off: 'WFSYNC_COMPILE_CACHE names a folder: on Windows only the default one is used' };
    if (!isAbsolutePath(setting, settings.platform))
      return { off: 'WFSYNC_COMPILE_CACHE is not an absolute path' };
    root = setting;
  } else {
    if (inCi(env)) return { off: 'in CI (WFSYNC_COMPILE_CACHE=<folder> turns it on)' };
    const base = userCacheHome(settings);
    if (base === undefined) return { off: 'no cache folder for this user' };
    root = join(base, 'wfsync', 'compile');
  }
  const version = `${settings.nodeVersion}-${settings.arch}`.replace(/[^\w.-]/g, '_');
  return { root, build: join(root, `${version}-${settings.buildId}`) };
}

/** The variables CI services set (GitHub Actions, GitLab CI and most others set CI). */
function inCi(env: CompileCacheSettings['env']): boolean {
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && !/^(false|0)$/i.test(ci)) return true;
  return env.GITHUB_ACTIONS === 'true' || env.GITLAB_CI !== undefined;
}

/** The platform's per-user cache folder: XDG on Linux and the like, Library/Caches on macOS, LOCALAPPDATA on Windows. */
function userCacheHome({ env, platform, home }: CompileCacheSettings): string | undefined {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA;
    return local && isAbsolutePath(local, platform) ? local : undefined;
  }
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolutePath(xdg, platform)) return xdg;
  if (!home || !isAbsolutePath(home, platform)) return undefined;
  return platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache');
}

function isAbsolutePath(path: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? /^([A-Za-z]:[\\/]|\\\\)/.test(path) : path.startsWith('/');
}

/**
 * The cache folder of one command: the first argument when it is a command-shaped word (`validate`), else `other`.
 * A run that only asks for help leaves no cache behind (see shouldSave), so `validate --help` never stands in for
 * `validate`.
 */
export function commandKey(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GLOBAL_VALUE_OPTIONS.includes(arg))
      i++; // `-c ci plan`: `ci` is the config file, not the command
    else if (!arg.startsWith('-')) return /^[a-z][a-z-]{0,31}$/.test(arg) ? arg : 'other';
  }
  return 'other';
}

/**
 * The program's global options that take a value as the next word (src/cli/program.ts; a test holds the two equal:
 * boot.cjs loads none of the CLI to know them).
 */
export const GLOBAL_VALUE_OPTIONS: readonly string[] = ['-c', '--config'];

/** Whether a run's compiled code is worth keeping: it did the command's work (not help, not a usage error). */
export function shouldSave(args: readonly string[], exitCode: number): boolean {
  if (exitCode === 64) return false;
  return !args.some((arg) => arg === '--help' || arg === '-h' || arg === 'help');
}

/** The cache file of one chunk (a dist/ file name): the chunk's name, kept to one path segment. */
export function cacheFileName(chunk: string): string {
  return `${chunk.replace(/[^\w.-]/g, '_')}.v8`;
}

/** A CRC-32 of some bytes (zlib.crc32; tests may give another). */
export type Checksum = (data: Uint8Array) => number;

const MAGIC = 0x31_43_46_57; // "WFC1", little-endian
const HEADER = 16;

/**
 * A cache file: a header (magic, the checksum of the chunk's text, the data's length and checksum), then V8's data.
 * Pure.
 */
export function frameCache(data: Uint8Array, source: Uint8Array, checksum: Checksum): Uint8Array {
  const file = new Uint8Array(HEADER + data.length);
  const header = new DataView(file.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, checksum(source), true);
  header.setUint32(8, data.length, true);
  header.setUint32(12, checksum(data), true);
  file.set(data, HEADER);
  return file;
}

/**
 * V8's data from a cache file, when the file is whole and was made for this very text of the chunk; undefined
 * otherwise (a miss: the chunk is compiled as usual and the file written again). Pure.
 */
export function unframeCache(
  file: Uint8Array,
  source: Uint8Array,
  checksum: Checksum,
): Uint8Array | undefined {
  if (file.length < HEADER) return undefined;
  const header = new DataView(file.buffer, file.byteOffset, HEADER);
  if (header.getUint32(0, true) !== MAGIC) return undefined;
  if (header.getUint32(8, true) !== file.length - HEADER) return undefined;
  if (header.getUint32(4, true) !== checksum(source)) return undefined;
  const data = file.subarray(HEADER);
  return header.getUint32(12, true) === checksum(data) ? data : undefined;
}
