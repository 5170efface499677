import type { Plan, PlanItem } from './types.js';

/**
 * Why a reviewed plan no longer describes the world (`wfsync sync --plan`): a file changed (its hash), the service
 * changed (its version), a workflow appeared or disappeared, or an action changed. Empty when the plan still holds.
 * Pure.
 */
export function findPlanStaleness(reviewed: Plan, fresh: Plan): string[] {
  const reasons: string[] = [];
  if (reviewed.version !== 1)
    return [`the plan file has version ${String(reviewed.version)}; this wfsync reads version 1`];
  if (reviewed.target.name !== fresh.target.name) {
    reasons.push(`the plan is for target "${reviewed.target.name}", not "${fresh.target.name}"`);
  }
  const before = new Map(reviewed.items.map((i) => [i.identifier, i]));
  const after = new Map(fresh.items.map((i) => [i.identifier, i]));
  for (const [identifier, was] of before) {
    const now = after.get(identifier);
    if (!now) {
      reasons.push(`${identifier}: in the plan, but no longer a definition or in state`);
      continue;
    }
    reasons.push(...compareItem(was, now));
  }
  for (const identifier of after.keys()) {
    if (!before.has(identifier)) reasons.push(`${identifier}: not in the plan (a new definition?)`);
  }
  return reasons;
}

function compareItem(was: PlanItem, now: PlanItem): string[] {
  const id = was.identifier;
  const reasons: string[] = [];
  if (was.desiredHash !== now.desiredHash)
    reasons.push(`${id}: the definition file changed since the plan was made`);
  if (was.remoteVersion !== now.remoteVersion)
    reasons.push(`${id}: the workflow on the service changed since the plan was made`);
  if (was.action !== now.action)
    reasons.push(`${id}: was "${was.action}" in the plan, is "${now.action}" now`);
  return reasons;
}
