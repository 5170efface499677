/**
 * Renderers for `wfsync plan` and `wfsync sync`, by `--format` name. Pure: each returns the whole output, ending
 * with one newline. Writing it (stdout, `--out`, `$GITHUB_STEP_SUMMARY`) is `writeOutput`'s job.
 */

import type { SyncResult } from '../../apply/result.js';
import type { Plan } from '../../plan/types.js';
import { renderPlanCodeClimate } from './codeclimate.js';
import { renderPlanGithub, renderSyncGithub } from './github.js';
import { renderPlanHuman, renderSyncHuman } from './human.js';
import { renderPlanJson, renderSyncJson } from './json.js';
import { renderPlanMarkdown, renderSyncMarkdown } from './markdown.js';
import type { CommentContext } from './stamp.js';
import type { PlanRenderOptions } from './view.js';

export type PlanFormat = 'human' | 'json' | 'markdown' | 'github';

/** `wfsync plan` also writes GitLab's Code Quality report (sync does not: its result is not a list of findings). */
export type PlanCommandFormat = PlanFormat | 'codeclimate';

/** Every format's options; the comment's context (stamp, `--target` given) is read by the markdown format only. */
export type PlanReportOptions = PlanRenderOptions & CommentContext;

export const planRenderers: Record<PlanCommandFormat, (plan: Plan, options: PlanReportOptions) => string> = {
  human: renderPlanHuman,
  json: renderPlanJson,
  markdown: renderPlanMarkdown,
  github: renderPlanGithub,
  codeclimate: (plan) => renderPlanCodeClimate(plan),
};

export const syncRenderers: Record<PlanFormat, (result: SyncResult, options: PlanReportOptions) => string> = {
  human: renderSyncHuman,
  json: renderSyncJson,
  markdown: renderSyncMarkdown,
  github: renderSyncGithub,
};
