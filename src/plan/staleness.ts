import { isRecord } from '../json.js';
import { READABLE_PLAN_VERSIONS } from './schema-version.js';
import type { Plan, PlanItem } from './types.js';

/**
 * What a plan file read back (`sync --plan`) must hold for the staleness check to read it: a plan of this
 * `schemaVersion` or an older one (`version: 1` included: their plan fields are the same) with a target name and
 * items, each with its identifier and action, and its hashes as strings when present. The file is outside data
 * (edited by hand, or by anyone with write access to the artifact): the first field out of shape is the problem,
 * never a crash. Pure.
 */
export function checkReviewedPlan(value: unknown): { plan: Plan } | { problem: string } {
  if (!isRecord(value)) return { problem: 'not a wfsync plan (a JSON object with "schemaVersion")' };
  const version = documentVersion(value);
  if (version !== undefined) return { problem: version };
  if (!isRecord(value.target) || typeof value.target.name !== 'string')
    return { problem: '"target.name" is missing or not a string' };
  if (!Array.isArray(value.items)) return { problem: '"items" is missing or not a list' };
  for (const [index, item] of value.items.entries()) {
    const at = `items[${index}]`;
    if (!isRecord(item)) return { problem: `${at} is not an object` };
    for (const field of ['identifier', 'action'] as const)
      if (typeof item[field] !== 'string') return { problem: `${at}.${field} is missing or not a string` };
    for (const field of ['desiredHash', 'remoteVersion'] as const)
      if (item[field] !== undefined && typeof item[field] !== 'string')
        return { problem: `${at}.${field} is not a string` };
  }
  // The in-memory plan keeps its own `version` field; the document's version was checked above. Its verdict
  // (version 3) is the document's, not the plan's: the fresh plan's is what counts.
  const { schemaVersion: _, exitCode: _code, needsPerson: _who, meaning: _meaning, ...plan } = value;
  return { plan: { ...plan, version: 1 } as unknown as Plan };
}

/** Why the document's version cannot be read, or undefined when it can: `schemaVersion` 4, 3 or 2, or `version: 1`. */
function documentVersion(value: Record<string, unknown>): string | undefined {
  const { schemaVersion, version } = value;
  if (typeof schemaVersion === 'number' && READABLE_PLAN_VERSIONS.includes(schemaVersion)) return undefined;
  if (schemaVersion === undefined && version === 1) return undefined;
  const versions = READABLE_PLAN_VERSIONS;
  const listed = `${versions.slice(0, -1).join(', ')} and ${versions.at(-1)}`;
  const readable = `this wfsync reads schemaVersion ${listed} (and plans written with "version": 1)`;
  if (typeof schemaVersion === 'number')
    return `the plan has schemaVersion ${schemaVersion}; ${readable}: make the plan with the wfsync that syncs it`;
  if (schemaVersion !== undefined) return `"schemaVersion" is not a number; ${readable}`;
  if (version !== undefined) return `the plan has "version": ${JSON.stringify(version)}; ${readable}`;
  return 'not a wfsync plan (no "schemaVersion")';
}

/**
 * Why a reviewed plan no longer describes the world (`wfsync sync --plan`): a file changed (its hash), the service
 * changed (its version), a workflow appeared or disappeared, or an action changed. Empty when the plan still holds.
 * Pure.
 */
export function findPlanStaleness(reviewed: Plan, fresh: Plan): string[] {
  const reasons: string[] = [];
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
