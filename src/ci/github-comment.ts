/**
 * wfsync's comment on a GitHub pull request: ONE per target, found by the plan's marker among the pull request's
 * comments written by the token's own identity (anyone can write a comment that quotes the marker), updated in place,
 * created only when the plan has something to say. GitHub's REST API at `$GITHUB_API_URL` (GitHub Enterprise, or a
 * loopback fake in tests): every page of comments is read (Link: rel="next", at most 100 pages) and a next page on
 * another origin is refused; fetch drops the Authorization header on a redirect to another origin, so the token
 * never leaves the API's host. The token
 * comes from WFSYNC_GITHUB_TOKEN (the Action's `github-token`), goes in the Authorization header only and is masked
 * out of every message.
 */
import { readFile } from 'node:fs/promises';
import { buildNoteBody, jobUrl, type NoteInput } from './note-body.js';
import type { RelayOutput } from './output.js';

/** The variable the Action gives the relay its `github-token` in (never INPUT_*: wfsync's own run never sees it). */
export const GITHUB_TOKEN_ENV = 'WFSYNC_GITHUB_TOKEN';
/** Who posts when the token cannot tell (GITHUB_TOKEN is an installation token: `GET /user` refuses it). */
export const ACTIONS_BOT = 'github-actions[bot]';
const MAX_PAGES = 100;

/** A write the token may not make: a pull request from a fork gets a read-only GITHUB_TOKEN. */
export class CommentForbidden extends Error {}

export interface CommentUpsert {
  apiUrl: string;
  token: string;
  /** `owner/name`. */
  repository: string;
  issueNumber: number;
  marker: string;
  body: string;
  /** Create a comment when there is none yet (a plan with nothing to change leaves the pull request alone). */
  createWhenNew: boolean;
}

export type CommentResult = { action: 'created' | 'updated' | 'skipped'; url: string };

export async function upsertGithubComment(options: CommentUpsert): Promise<CommentResult> {
  const api = githubApi(options.apiUrl, options.token);
  const [owner, repo] = options.repository.split('/');
  const base = `/repos/${encodeURIComponent(owner ?? '')}/${encodeURIComponent(repo ?? '')}`;
  const author = await ownLogin(api);
  const comments = await api.list(`${base}/issues/${options.issueNumber}/comments?per_page=100`);
  const previous = comments.find(
    (c) => c.user?.login === author && typeof c.body === 'string' && c.body.includes(options.marker),
  );
  if (previous !== undefined) {
    const updated = await api.send('PATCH', `${base}/issues/comments/${Number(previous.id)}`, options.body);
    return { action: 'updated', url: String(updated.html_url ?? '') };
  }
  if (!options.createWhenNew) return { action: 'skipped', url: '' };
  const created = await api.send('POST', `${base}/issues/${options.issueNumber}/comments`, options.body);
  return { action: 'created', url: String(created.html_url ?? '') };
}

/** What the relay reads of GitHub's answers (a comment, a user, an event), loosely: anything may be missing. */
interface Loose {
  id?: unknown;
  body?: unknown;
  html_url?: unknown;
  login?: unknown;
  number?: unknown;
  user?: { login?: unknown } | null;
  pull_request?: { number?: unknown; head?: { repo?: { full_name?: unknown } | null } | null } | null;
}

const loose = (value: unknown): Loose =>
  value !== null && typeof value === 'object' ? (value as Loose) : {};

async function ownLogin(api: ReturnType<typeof githubApi>): Promise<string> {
  const response = await api.request('GET', api.resolve('/user'));
  if (!response.ok) return ACTIONS_BOT;
  const user = loose(await response.json());
  return typeof user.login === 'string' ? user.login : ACTIONS_BOT;
}

function githubApi(apiUrl: string, token: string) {
  const root = new URL(apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  const headers = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': 'wfsync-ci-relay',
  };
  const resolve = (path: string) => new URL(path.slice(1), root);
  const request = (method: string, url: URL, body?: string) =>
    fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify({ body }) }),
    });
  const check = (response: Response, what: string): Response => {
    if (response.ok) return response;
    if (response.status === 403 || response.status === 404)
      throw new CommentForbidden(`${what}: GitHub answered ${response.status}`);
    throw new Error(`${what}: GitHub answered ${response.status}`);
  };
  return {
    resolve,
    request,
    async send(method: 'PATCH' | 'POST', path: string, body: string): Promise<Loose> {
      return loose(await check(await request(method, resolve(path), body), `${method} comment`).json());
    },
    async list(path: string): Promise<Loose[]> {
      const all: Loose[] = [];
      let next: URL | undefined = resolve(path);
      for (let page = 0; next !== undefined; page++) {
        if (page === MAX_PAGES)
          throw new Error(`list comments: the list did not end after ${MAX_PAGES} pages`);
        const response = check(await request('GET', next), 'list comments');
        const items: unknown = await response.json();
        if (Array.isArray(items)) all.push(...items.map(loose));
        next = nextPage(response.headers.get('link'), root);
      }
      return all;
    },
  };
}

/** The `rel="next"` URL of a Link header, only on the API's own origin. */
function nextPage(link: string | null, root: URL): URL | undefined {
  const found = /<([^>]+)>;\s*rel="next"/.exec(link ?? '');
  if (!found) return undefined;
  const url = new URL(found[1]!, root);
  if (url.origin !== root.origin)
    throw new Error('list comments: the next page is on another host; not following it');
  return url;
}

/** The pull request's number from the event the job runs for, or undefined outside a pull request. */
async function pullRequestNumber(env: NodeJS.ProcessEnv): Promise<{ number?: number; fork: boolean }> {
  if (env.GITHUB_EVENT_NAME !== 'pull_request' && env.GITHUB_EVENT_NAME !== 'pull_request_target')
    return { fork: false };
  let event: Loose = {};
  try {
    event = loose(JSON.parse(await readFile(env.GITHUB_EVENT_PATH ?? '', 'utf8')));
  } catch {
    // no event file: not a pull request the relay can name
  }
  const number = Number(event.pull_request?.number ?? event.number);
  const head = event.pull_request?.head?.repo?.full_name;
  const fork = typeof head === 'string' && head !== env.GITHUB_REPOSITORY;
  return Number.isInteger(number) && number > 0 ? { number, fork } : { fork };
}

/**
 * Writes the plan comment (the Action's `comment`), and the `comment-url` step output; true when it was written or
 * there was no reason to, or the token may not write it (a fork's: said in a warning, the plan is in the summary).
 */
export async function writeGithubComment(input: NoteInput, out: RelayOutput): Promise<boolean> {
  const { env } = input;
  const pull = await pullRequestNumber(env);
  if (pull.number === undefined) {
    out.line('wfsync: not a pull request: no comment to post.');
    await out.setOutput('comment-url', '');
    return true;
  }
  const token = env[GITHUB_TOKEN_ENV] ?? '';
  const log = jobUrl(`${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`);
  const { marker, body } = buildNoteBody({ ...input, log });
  try {
    if (token === '') throw new Error(`no token (${GITHUB_TOKEN_ENV}, the github-token input)`);
    const result = await upsertGithubComment({
      apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
      token,
      repository: env.GITHUB_REPOSITORY ?? '',
      issueNumber: pull.number,
      marker,
      body,
      createWhenNew: input.code !== 0,
    });
    const url = result.url.replace(/[\r\n]/g, '');
    if (result.action === 'skipped')
      out.line('wfsync: no changes and no earlier plan comment: nothing to post.');
    else out.line(`wfsync: plan comment ${result.action}: ${url}`);
    await out.setOutput('comment-url', url);
    return true;
  } catch (error) {
    await out.setOutput('comment-url', '');
    if (error instanceof CommentForbidden) {
      const why = pull.fork
        ? ' (it comes from a fork, whose runs get a read-only token)'
        : ' (give the job pull-requests: write)';
      out.annotate(
        'warning',
        'wfsync plan',
        `this run's token may not comment on the pull request${why}; the plan is in the job summary instead.`,
      );
      return true;
    }
    const message = error instanceof Error ? error.message : String(error);
    const masked = token === '' ? message : message.split(token).join('***');
    out.annotate('error', 'wfsync plan', `the plan comment could not be posted: ${masked}`);
    return false;
  }
}
