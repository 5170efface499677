/**
 * Renderers for `wfsync plan` and `wfsync sync`, by `--format` name. Pure: each returns the whole output, ending
 * with one newline. Writing it (stdout, `--out`, `$GITHUB_STEP_SUMMARY`) is `writeOutput`'s job.
 */

import type { SyncResult } from '../../apply/result.js';
import type { Plan } from '../../plan/types.js';
import { renderPlanGithub, renderSyncGithub } from './github.js';
import { renderPlanHuman, renderSyncHuman } from './human.js';
import { renderPlanJson, renderSyncJson } from './json.js';
import { renderPlanMarkdown, renderSyncMarkdown } from './markdown.js';
import type { CommentContext } from './stamp.js';
import type { PlanRenderOptions } from './view.js';

export type PlanFormat = 'human' | 'json' | 'markdown' | 'github';

/** Every format's options; the comment's context (stamp, `--target` given) is read by the markdown format only. */
export type PlanReportOptions = PlanRenderOptions & CommentContext;

export const planRenderers: Record<PlanFormat, (plan: Plan, options: PlanReportOptions) => string> = {
  human: renderPlanHuman,
  json: renderPlanJson,
  markdown: renderPlanMarkdown,
  github: renderPlanGithub,
};

export const syncRenderers: Record<PlanFormat, (result: SyncResult, options: PlanReportOptions) => string> = {
  human: renderSyncHuman,
  json: renderSyncJson,
  markdown: renderSyncMarkdown,
  github: renderSyncGithub,
};
