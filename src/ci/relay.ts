/**
 * The CI relay (`wfsync ci-relay`), one for every provider: after a job ran wfsync, it reads the document the run
 * wrote and what it printed as Markdown, keeps wfsync's one comment (GitHub) or note (GitLab) on the pull or merge
 * request up to date, says the verdict (verdict.ts) and gives the job its exit code. The GitHub Action and the GitLab
 * jobs `wfsync init` writes both call it, so a pipeline gets its fixes with an upgrade of wfsync.
 */
import { buildMarkdownDocument } from '../report/channel.js';
import { PR_COMMENT_MARKER, planCommentMarkers } from '../report/plan/markdown.js';
import { GITLAB_TOKEN_ENV } from '../scaffold/ci/gitlab-scripts.js';
import { documentTarget, documentVerdict, needingAPerson } from './document.js';
import { upsertGitlabNote } from './gitlab-note.js';
import {
  type CiProvider,
  commentFailedVerdict,
  decideVerdict,
  type RelayedCommand,
  safeName,
  type Verdict,
} from './verdict.js';

export interface RelayInput {
  provider: CiProvider;
  command: RelayedCommand;
  code: number;
  env: NodeJS.ProcessEnv;
  /** The document wfsync wrote (`--out`), parsed, or undefined when there is none. */
  document: unknown;
  /** What wfsync printed as Markdown, when the comment or note is to be written; '' when it printed nothing. */
  markdown?: string;
  /** `--target`, when the document does not name it (wfsync failed before writing one). */
  target?: string;
  /** The caller wrote the comment and could not (the GitHub Action): a plan that would pass fails. */
  commentFailed?: boolean;
}

/** Where the relay's lines go: plain lines, and the verdict (the provider's format marks it). */
export interface RelayOutput {
  line(text: string): void;
  verdict(command: RelayedCommand, verdict: Verdict): void;
}

export async function relay(input: RelayInput, out: RelayOutput): Promise<number> {
  const said = documentVerdict(input.document);
  const targetName = documentTarget(input.document) ?? input.target;
  const changeRequest = isChangeRequest(input.provider, input.env);
  let commentFailed = input.commentFailed === true;
  if (input.markdown !== undefined) {
    commentFailed = !(await writeNote(input, targetName, out)) || commentFailed;
  }
  const verdict = decideVerdict({
    provider: input.provider,
    command: input.command,
    code: input.code,
    target: targetName === undefined ? 'the target' : safeName(targetName),
    changeRequest,
    who: needingAPerson(input.document),
    ...(said?.exitCode === input.code ? { meaning: said.meaning } : {}),
  });
  const final = verdict.exitCode === 0 && commentFailed ? commentFailedVerdict(input.provider) : verdict;
  if (final !== verdict) out.verdict(input.command, verdict);
  out.verdict(input.command, final);
  return final.exitCode;
}

function isChangeRequest(provider: CiProvider, env: NodeJS.ProcessEnv): boolean {
  if (provider === 'gitlab') return (env.CI_MERGE_REQUEST_IID ?? '') !== '';
  return env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target';
}

/** The marker lines the Markdown starts with (the plan's, then the target's), and the rest. */
function splitMarkers(markdown: string): { markers: string[]; rest: string } {
  const lines = markdown.split('\n');
  let count = 0;
  while (count < lines.length && /^<!-- wfsync-[a-z]+(?: target=\S*)? -->$/.test(lines[count] ?? '')) count++;
  return { markers: lines.slice(0, count), rest: lines.slice(count).join('\n') };
}

/** The comment's body: the plan as printed, or a short failure that points at the log; through the markdown channel. */
function noteBody(input: RelayInput, target: string | undefined, log: string | undefined) {
  const { markers, rest } = splitMarkers(input.markdown ?? '');
  if (markers.includes(PR_COMMENT_MARKER)) {
    const marker = markers.find((m) => m.includes(' target=')) ?? markers[0]!;
    return { marker, body: buildMarkdownDocument(markers, rest) };
  }
  const own = planCommentMarkers(target);
  const where = log === undefined ? "this job's log" : `[the job log](${log})`;
  const body = buildMarkdownDocument(
    own,
    `### wfsync plan failed\n\n\`wfsync plan\` exited ${input.code} without printing a plan: see ${where}.\n`,
  );
  return { marker: own[own.length - 1]!, body };
}

/** A job URL from the environment, only when it is one (it goes into a Markdown link). */
function jobUrl(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? url.href.replace(
          /[()\s]/g,
          (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
        )
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the note (GitLab); true when it was written or there was no reason to. */
async function writeNote(input: RelayInput, target: string | undefined, out: RelayOutput): Promise<boolean> {
  const { env } = input;
  if (input.provider !== 'gitlab') throw new Error('the GitHub comment is written by the Action');
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
  const { marker, body } = noteBody(input, target, jobUrl(env.CI_JOB_URL));
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
