/**
 * The CI relay (`wfsync ci-relay`), one for every provider: after a job ran wfsync, it reads the document the run
 * wrote and what it printed as Markdown, keeps wfsync's one comment (GitHub) or note (GitLab) on the pull or merge
 * request up to date (github-comment.ts, gitlab-note.ts), writes the GitHub job summary, says the verdict
 * (verdict.ts) and gives the job its exit code. The GitHub Action and the GitLab
 * jobs `wfsync init` writes both call it, so a pipeline gets its fixes with an upgrade of wfsync.
 */

import { documentTarget, documentVerdict, needingAPerson } from './document.js';
import { writeGithubComment } from './github-comment.js';
import { writeGitlabNote } from './gitlab-note.js';
import { buildSummaryMarkdown } from './note-body.js';
import type { RelayOutput } from './output.js';
import {
  type CiProvider,
  commentFailedVerdict,
  decideVerdict,
  type RelayedCommand,
  safeName,
} from './verdict.js';

export interface RelayInput {
  provider: CiProvider;
  command: RelayedCommand;
  code: number;
  env: NodeJS.ProcessEnv;
  /** The document wfsync wrote (`--out`), parsed, or undefined when there is none. */
  document: unknown;
  /**
   * What wfsync printed as Markdown ('' when it printed nothing): the comment or note to write, and on GitHub the job
   * summary.
   */
  markdown?: string;
  /** false: the Markdown is for the job summary only, not the pull request (the Action's `comment: false`). */
  comment?: boolean;
  /** `--target`, when the document does not name it (wfsync failed before writing one). */
  target?: string;
}

export async function relay(input: RelayInput, out: RelayOutput): Promise<number> {
  const said = documentVerdict(input.document);
  const targetName = documentTarget(input.document) ?? input.target;
  const changeRequest = isChangeRequest(input.provider, input.env);
  let commentFailed = false;
  if (input.markdown !== undefined) {
    const markdown = input.markdown;
    if (input.provider === 'github' && markdown !== '')
      await out.appendSummary(buildSummaryMarkdown(markdown));
    if (input.comment !== false) {
      const write = input.provider === 'github' ? writeGithubComment : writeGitlabNote;
      const written = await write({ env: input.env, markdown, code: input.code, target: targetName }, out);
      commentFailed = !written;
    }
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
