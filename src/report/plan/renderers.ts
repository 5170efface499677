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

export type PlanFormat = 'human' | 'json' | 'markdown' | 'github';

export interface PlanRenderOptions {
  /** ANSI colors; only the human format uses them (github's log part never does). */
  color: boolean;
  /** List the server-managed fields that are never compared. */
  showIgnored?: boolean;
  /** The command printing: `sync` prints its plan without telling the reader to run sync. */
  command: 'plan' | 'sync';
}

export type PlanRenderer = (plan: Plan, options: PlanRenderOptions) => string;
export type SyncRenderer = (result: SyncResult, options: PlanRenderOptions) => string;

export const planRenderers: Record<PlanFormat, PlanRenderer> = {
  human: renderPlanHuman,
  json: (plan) => renderPlanJson(plan),
  markdown: renderPlanMarkdown,
  github: renderPlanGithub,
};

export const syncRenderers: Record<PlanFormat, SyncRenderer> = {
  human: renderSyncHuman,
  json: (result) => renderSyncJson(result),
  markdown: renderSyncMarkdown,
  github: renderSyncGithub,
};

export const PLAN_FORMATS = Object.keys(planRenderers) as PlanFormat[];

export function isPlanFormat(name: string): name is PlanFormat {
  return Object.hasOwn(planRenderers, name);
}
