/**
 * The few git commands `plan --base` needs, run as child processes with argv only (never a shell), bounded output,
 * and git's own messages kept out of ours except as a reason: the base commit, the merge-base, one tree listing and
 * the blobs of one commit through one `git cat-file --batch`. git runs in the project folder with the run's environment
 * (GitContext), and always addresses the repository found from that folder.
 */
import { execFile, spawn } from 'node:child_process';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

/** Largest output read from one git command (a tree listing of a large repository fits). */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Where git runs: the project folder, and the whole environment of the run (the CLI's `process.env`, the API's `env`
 * option). git gets that environment and nothing of the host's beyond it: its PATH finds git, its HOME and
 * GIT_CONFIG_* configure it.
 */
export interface GitContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The variables that make git address a repository other than the one found from the folder (or part of one): a
 * hook runs with GIT_DIR and GIT_INDEX_FILE set by git, a shell may hold them from another task. wfsync never reads
 * the index or the work tree through git, only commits, so dropping them loses nothing. What only narrows the search
 * (GIT_CEILING_DIRECTORIES, GIT_DISCOVERY_ACROSS_FILESYSTEM) or configures git (GIT_CONFIG_*) is kept.
 */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/**
 * The run's environment for git: the repository found from the folder, in a fixed language, never asking anything,
 * never paging.
 */
export function gitEnvironment(env: GitContext['env']): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };
  for (const name of REPOSITORY_VARIABLES) delete result[name];
  return result;
}

/** A git problem the user can fix (not a repository, unknown ref, shallow clone, git missing): exit 64. */
export class GitBaseError extends WfsyncError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.Usage });
  }
}

export type GitResult = { ok: true; stdout: Buffer } | { ok: false; code: number | string; stderr: string };

export function runGit(
  at: GitContext,
  args: readonly string[],
  options: { timeoutMs?: number } = {},
): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      {
        cwd: at.cwd,
        env: gitEnvironment(at.env),
        encoding: 'buffer',
        maxBuffer: MAX_OUTPUT,
        windowsHide: true,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          resolve({ ok: false, code: 'ENOENT', stderr: '' });
          return;
        }
        resolve({ ok: false, code: code ?? 1, stderr: firstLine(stderr.toString('utf8')) });
      },
    );
  });
}

/** git's stdout as one trimmed line, or a GitBaseError saying what could not be done. */
export async function gitLine(at: GitContext, args: readonly string[], what: string): Promise<string> {
  const result = await runGit(at, args);
  if (result.ok) return result.stdout.toString('utf8').trim();
  throw new GitBaseError(`${what}: ${failureReason(result)}`);
}

export function failureReason(result: Extract<GitResult, { ok: false }>): string {
  if (result.code === 'ENOENT') return 'git is not installed (or not on PATH)';
  if (result.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return 'git said more than wfsync reads';
  return result.stderr === '' ? `git exited with ${result.code}` : `git says "${result.stderr}"`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 300);
}

/** One entry of `git ls-tree -r -l -z`. */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** Bytes, for blobs. */
  size: number;
  /** From the repository's top level, `/` separators, as git stores it (any bytes but NUL). */
  path: string;
}

/** Every entry under `dir` (from the top level; '' for all) of the commit's tree. */
export async function listTree(at: GitContext, commit: string, dir: string): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-r', '-l', '-z', '--full-tree', commit];
  if (dir !== '') args.push('--', dir);
  const result = await runGit(at, args);
  if (!result.ok) throw new GitBaseError(`cannot list the files of ${commit}: ${failureReason(result)}`);
  const entries: TreeEntry[] = [];
  for (const record of result.stdout.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode = '', type = '', oid = '', size = ''] = record.slice(0, tab).split(/ +/);
    entries.push({ mode, type, oid, size: Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

/**
 * One `git cat-file --batch` for the run: blobs asked for by object id, answered in order. Close it when done.
 */
export interface BlobReader {
  read(oids: readonly string[]): Promise<Map<string, Uint8Array>>;
  close(): void;
}

export function openBlobReader(at: GitContext): BlobReader {
  const child = spawn('git', ['cat-file', '--batch'], {
    cwd: at.cwd,
    env: gitEnvironment(at.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let buffer: Buffer = Buffer.alloc(0);
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  child.on('error', (error: NodeJS.ErrnoException) => {
    failure = new GitBaseError(
      `cannot read the base's files: ${error.code === 'ENOENT' ? 'git is not installed (or not on PATH)' : error.message}`,
    );
    wake?.();
  });
  child.on('close', () => {
    failure ??= new GitBaseError("cannot read the base's files: git cat-file ended early");
    wake?.();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    wake?.();
  });
  child.stderr.resume();
  child.stdin.on('error', () => {
    // The process ended: 'close' says so.
  });

  /** Waits until `test` finds what it needs in the buffer. */
  const until = async <T>(test: () => T | undefined): Promise<T> => {
    for (;;) {
      const found = test();
      if (found !== undefined) return found;
      if (failure) throw failure;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  };

  const readOne = async (): Promise<Uint8Array | undefined> => {
    const header = await until(() => {
      const end = buffer.indexOf(10);
      if (end < 0) return undefined;
      const line = buffer.subarray(0, end).toString('utf8');
      buffer = buffer.subarray(end + 1);
      return line;
    });
    const [, type, size] = header.split(' ');
    if (type === 'missing' || size === undefined) return undefined;
    const length = Number(size);
    const body = await until(() => {
      if (buffer.length < length + 1) return undefined;
      const bytes = Uint8Array.prototype.slice.call(buffer, 0, length) as Uint8Array;
      buffer = buffer.subarray(length + 1);
      return { bytes };
    });
    return type === 'blob' ? body.bytes : undefined;
  };

  return {
    async read(oids) {
      const blobs = new Map<string, Uint8Array>();
      if (oids.length === 0) return blobs;
      child.stdin.write(`${oids.join('\n')}\n`);
      for (const oid of oids) {
        const bytes = await readOne();
        if (bytes !== undefined) blobs.set(oid, bytes);
      }
      return blobs;
    },
    close() {
      child.stdin.end();
      if (child.exitCode === null) child.kill();
    },
  };
}
