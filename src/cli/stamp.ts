import { readFile } from 'node:fs/promises';
import { runGit } from '../git/git.js';
import { isRecord, parseJson } from '../json.js';
import type { ReportStamp } from '../report/plan/stamp.js';

/**
 * The stamp of a comment (report/plan/stamp.ts): the time now (or `SOURCE_DATE_EPOCH`, for reproducible output),
 * and the commit: on a pull request under GitHub Actions the head of its branch (what the reviewer sees; `GITHUB_SHA`
 * is then GitHub's temporary merge commit), else `GITHUB_SHA`, else `git rev-parse --short HEAD` in the working
 * directory (git run with the run's environment, as `plan --base` runs it: git/git.ts), else none. Both are outside
 * data: a value not shaped like a commit is left out.
 */
export async function readStamp(env: NodeJS.ProcessEnv, cwd: string): Promise<ReportStamp> {
  const time = stampTime(env).toISOString();
  const commit =
    shortCommit(await pullRequestHead(env))?.slice(0, 7) ??
    shortCommit(env.GITHUB_SHA)?.slice(0, 7) ??
    shortCommit(await gitHead(env, cwd));
  return commit === undefined ? { time } : { time, commit };
}

/** The largest event file read for the pull request's head (the runner writes the whole webhook payload). */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** `pull_request.head.sha` of the event GitHub Actions ran for, on pull_request events; undefined otherwise. */
async function pullRequestHead(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const path = env.GITHUB_EVENT_PATH;
  if (!env.GITHUB_EVENT_NAME?.startsWith('pull_request') || !path) return undefined;
  try {
    const text = await readFile(path, 'utf8');
    if (text.length > MAX_EVENT_BYTES) return undefined;
    const event = parseJson(text);
    const head = isRecord(event) && isRecord(event.pull_request) ? event.pull_request.head : undefined;
    return isRecord(head) && typeof head.sha === 'string' ? head.sha : undefined;
  } catch {
    // A missing or unreadable event file only costs the stamp its pull-request head.
    return undefined;
  }
}

function stampTime(env: NodeJS.ProcessEnv): Date {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d{1,12}$/.test(epoch)) return new Date(Number(epoch) * 1000);
  return new Date();
}

function shortCommit(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^[0-9a-f]{7,64}$/i.test(trimmed) ? trimmed.toLowerCase() : undefined;
}

/** HEAD's short SHA, or undefined when git is missing, this is no repository, or it takes too long. */
async function gitHead(env: NodeJS.ProcessEnv, cwd: string): Promise<string | undefined> {
  const result = await runGit({ cwd, env }, ['rev-parse', '--short', 'HEAD'], { timeoutMs: 5_000 });
  return result.ok ? result.stdout.toString('utf8') : undefined;
}

/**
 * What a comment needs from the run: the stamp (read only when the output has a comment, the Markdown format or the
 * GitHub step summary: it may spawn git) and the `--target` given, for the commands it suggests.
 */
export async function readCommentContext(
  env: NodeJS.ProcessEnv,
  cwd: string,
  format: string,
  targetFlag: string | undefined,
): Promise<{ stamp?: ReportStamp; targetFlag?: string }> {
  const commented = format === 'markdown' || (format === 'github' && env.GITHUB_STEP_SUMMARY !== undefined);
  return {
    ...(commented ? { stamp: await readStamp(env, cwd) } : {}),
    ...(targetFlag === undefined || targetFlag === '' ? {} : { targetFlag }),
  };
}
