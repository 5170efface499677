/**
 * `wfsync plan --format codeclimate`: the plan's items that need a person (drifted, changed locally, missing
 * remotely, conflict, orphaned) and those the service could not be asked about (error) as GitLab Code Quality issues
 * at the definition's first changed line (the item's `line`, else line 1), plus the problems the service would
 * reject (the items' diagnostics). Creates and in-sync items are not problems: they are left out. An item is known by
 * its action and workflow identifier, so its fingerprint survives edits elsewhere in the file. Pure.
 */
import { PLAN_ACTIONS, planActionMeta } from '../../plan/actions.js';
import type { Plan, PlanItemFields } from '../../plan/types.js';
import {
  type CodeClimateProblem,
  type CodeClimateSeverity,
  DEFAULT_CONFIG_PATH,
  diagnosticProblem,
  renderCodeClimate,
} from '../codeclimate.js';

export function renderPlanCodeClimate(plan: Plan, options: { configPath?: string } = {}): string {
  const fallback = options.configPath ?? DEFAULT_CONFIG_PATH;
  const problems: CodeClimateProblem[] = [];
  for (const item of plan.items) {
    // The table's severity: by how much the action blocks (a conflict or an unanswered GET stops a sync outright).
    const severity = planActionMeta(item.action).codeClimate;
    if (severity !== undefined) problems.push(itemProblem(item, severity, plan.target.name, fallback));
    for (const d of item.diagnostics ?? []) problems.push(diagnosticProblem(d, fallback));
  }
  return renderCodeClimate(problems);
}

function itemProblem(
  item: PlanItemFields,
  severity: CodeClimateSeverity,
  target: string,
  fallback: string,
): CodeClimateProblem {
  const why = item.error === undefined ? '' : ` ${item.error}`;
  const next = item.next === '' ? '' : ` Next: ${item.next}`;
  return {
    checkName: `wfsync-plan/${item.action}`,
    description: `${item.identifier}: ${PLAN_ACTIONS[item.action].label} on ${target}.${why}${next}`,
    path: item.file === undefined || item.file === '' ? fallback : item.file,
    begin: item.line ?? 1,
    end: item.endLine ?? item.line ?? 1,
    severity,
    identity: [target, item.identifier],
  };
}
