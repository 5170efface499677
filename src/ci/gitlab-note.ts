/**
 * wfsync's note on a GitLab merge request: found by the plan's marker among the token owner's own notes (anyone can
 * write a note that quotes the marker), updated in place, created only when the plan has something to say. GitLab's
 * notes API at `$CI_API_V4_URL` (pages of 100 followed by `X-Next-Page`, at most 100 pages), authenticated with
 * `PRIVATE-TOKEN`. The token (WFSYNC_GITLAB_TOKEN) goes in that header only and is never part of a message.
 */
import { GITLAB_TOKEN_ENV } from '../scaffold/ci/gitlab-scripts.js';
import type { CommentUpsert } from './github-comment.js';
import { buildNoteBody, jobUrl, type NoteInput } from './note-body.js';
import type { RelayOutput } from './output.js';
import { safeName } from './verdict.js';

export interface NoteTarget {
  /** `$CI_API_V4_URL`. */
  apiUrl: string;
  token: string;
  project: string;
  mergeRequest: string;
}

/** The note to write, as a GitHub comment is (`createWhenNew`: a plan with nothing to change leaves it alone). */
export type NoteUpsert = NoteTarget & Pick<CommentUpsert, 'marker' | 'body' | 'createWhenNew'>;

export type NoteResult = { action: 'created' | 'updated'; id: number } | { action: 'skipped' };

const MAX_PAGES = 100;

export async function upsertGitlabNote(options: NoteUpsert): Promise<NoteResult> {
  const call = caller(options);
  const notes = `/projects/${encodeURIComponent(options.project)}/merge_requests/${encodeURIComponent(options.mergeRequest)}/notes`;
  const me = (await (await call('GET', '/user')).json()) as { id?: unknown } | null;
  if (!Number.isInteger(me?.id)) throw new Error('GET /user: the answer names no user id');
  let previous: { id: unknown } | undefined;
  let page = '1';
  for (let pages = 1; page !== '' && previous === undefined; pages++) {
    if (pages > MAX_PAGES) throw new Error(`the notes did not end after ${MAX_PAGES} pages`);
    const response = await call('GET', `${notes}?sort=asc&order_by=created_at&per_page=100&page=${page}`);
    const list = (await response.json()) as unknown;
    previous = (Array.isArray(list) ? list : []).find(
      (note) =>
        note !== null &&
        typeof note === 'object' &&
        note.system !== true &&
        note.author?.id === me?.id &&
        typeof note.body === 'string' &&
        note.body.includes(options.marker),
    );
    const next = response.headers.get('x-next-page') ?? '';
    page = /^\d{1,9}$/.test(next) ? next : '';
  }
  if (previous !== undefined) {
    const id = Number(previous.id);
    await call('PUT', `${notes}/${id}`, { body: options.body });
    return { action: 'updated', id };
  }
  if (!options.createWhenNew) return { action: 'skipped' };
  const created = (await (await call('POST', notes, { body: options.body })).json()) as { id?: unknown };
  return { action: 'created', id: Number(created?.id) };
}

function caller(target: NoteTarget) {
  const api = target.apiUrl.replace(/\/+$/, '');
  return async (method: string, path: string, payload?: unknown): Promise<Response> => {
    const response = await fetch(api + path, {
      method,
      redirect: 'manual',
      headers: {
        'PRIVATE-TOKEN': target.token,
        ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    if (!response.ok) {
      // Text from outside: no controls (the job log reads colours and log sections), short.
      const detail = (await response.text())
        .slice(0, 300)
        .replace(/[\s\p{Cc}]+/gu, ' ')
        .trim();
      throw new Error(`${method} ${path.split('?')[0]}: GitLab answered ${response.status} ${detail}`.trim());
    }
    return response;
  };
}

/** Writes the note on the merge request; true when it was written or there was no reason to. */
export async function writeGitlabNote(input: NoteInput, out: RelayOutput): Promise<boolean> {
  const { env } = input;
  const token = env[GITLAB_TOKEN_ENV] ?? '';
  if (token === '') {
    out.line(
      `wfsync: no ${GITLAB_TOKEN_ENV} variable: the plan is in this log and the plan.md artifact, not on the merge request. ` +
        `To get the note, add a project access token (role Reporter, scope api) as the masked CI/CD variable ${GITLAB_TOKEN_ENV}.`,
    );
    return true;
  }
  const apiUrl = env.CI_API_V4_URL ?? '';
  const project = env.CI_PROJECT_ID ?? '';
  const mergeRequest = env.CI_MERGE_REQUEST_IID ?? '';
  if (apiUrl === '' || project === '' || mergeRequest === '') {
    out.line(
      'wfsync: not a merge request pipeline (CI_API_V4_URL, CI_PROJECT_ID or CI_MERGE_REQUEST_IID is missing): no note.',
    );
    return false;
  }
  const { marker, body } = buildNoteBody({ ...input, log: jobUrl(env.CI_JOB_URL) });
  try {
    const result = await upsertGitlabNote({
      apiUrl,
      token,
      project,
      mergeRequest,
      marker,
      body,
      createWhenNew: input.code !== 0,
    });
    const mr = `!${safeName(mergeRequest)}`;
    if (result.action === 'updated') out.line(`wfsync: updated the plan note (${result.id}) on ${mr}`);
    else if (result.action === 'created') out.line(`wfsync: wrote the plan note (${result.id}) on ${mr}`);
    else out.line('wfsync: no changes and no earlier plan note: nothing to post.');
    return true;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split(token).join('***');
    out.line(`wfsync: could not write the merge request note: ${message}`);
    return false;
  }
}
