/**
 * `--format json` (and `plan --out`): the plan object itself under the JSON contract's `schemaVersion`
 * (schemas/plan-output.schema.json), read back by `sync --plan`. Keys are camelCase; values keep their spelling
 * (`in-sync`). Keys come in a fixed order so the same plan always gives the same bytes; a field the schema does not
 * list is kept, after the known ones, in sorted order. User data (`body`, change values) keeps its own order.
 *
 * Sync: `{schemaVersion, plan, outcomes, summary, interrupted, status}` (schemas/sync-output.schema.json), its plan the
 * plan document itself and its summary keyed by the outcomes in camelCase (`inSync`, `changedLocally`).
 */

import planSchema from '../../../schemas/plan-output.schema.json' with { type: 'json' };
import syncSchema from '../../../schemas/sync-output.schema.json' with { type: 'json' };
import { buildSyncVerdict, SYNC_OUTCOME_NAMES, SYNC_OUTCOMES, type SyncResult } from '../../apply/result.js';
import type { ErrorOutput } from '../../generated/plan-output.js';
import type { SyncOutput } from '../../generated/sync-output.js';
import { isRecord, type Json } from '../../json.js';
import { PLAN_ACTION_NAMES, PLAN_ACTIONS } from '../../plan/actions.js';
import { SCHEMA_VERSION } from '../../plan/schema-version.js';
import type { Plan, PlanDocument } from '../../plan/types.js';
import { buildPlanVerdict } from '../../plan/verdict.js';
import { jsonText } from '../channel.js';
import { DIAGNOSTIC_KEYS } from '../json.js';

/**
 * Each object's keys in the order its schema lists them: the schemas are the one place the documents' key order is
 * written (a field added there takes its place here too).
 */
const keysOf = (schema: { properties: object }): readonly string[] => Object.keys(schema.properties);
const PLAN_KEYS = keysOf(planSchema.$defs.PlanOutput);
const TARGET_KEYS = keysOf(planSchema.$defs.Target);
const ITEM_KEYS = keysOf(planSchema.$defs.PlanItem);
const CHANGE_KEYS = keysOf(planSchema.$defs.FieldChange);
const SYNC_KEYS = keysOf(syncSchema.$defs.SyncOutput);
const OUTCOME_KEYS = keysOf(syncSchema.$defs.SyncItemResult);

/** `sync --format json`, typed from its schema. */
type SyncDocument = Exclude<SyncOutput, ErrorOutput>;

/**
 * A copy of `value` with `keys` first (in that order), then any other own key in sorted order. Absent and
 * undefined values are left out (JSON would drop them anyway). `map` rewrites nested values by key.
 */
function ordered<T extends object>(
  value: T,
  keys: readonly string[],
  map: Record<string, (v: unknown) => unknown> = {},
): T {
  const source = value as Json;
  const rest = Object.keys(source)
    .filter((k) => !keys.includes(k))
    .sort();
  const out: Json = {};
  for (const key of [...keys, ...rest]) {
    const v = source[key];
    if (v === undefined || !Object.hasOwn(source, key)) continue;
    const rewrite = map[key];
    out[key] = rewrite ? rewrite(v) : v;
  }
  // The same fields in another order (each rewrite reorders a nested value's keys): still a T.
  return out as T;
}

const eachOrdered =
  (keys: readonly string[], map?: Record<string, (v: unknown) => unknown>) =>
  (list: unknown): unknown =>
    Array.isArray(list) ? list.map((v) => (isRecord(v) ? ordered(v, keys, map) : v)) : list;

const objectOrdered =
  (keys: readonly string[]) =>
  (v: unknown): unknown =>
    isRecord(v) ? ordered(v, keys) : v;

const changesOrdered = eachOrdered(CHANGE_KEYS);
const diagnosticsOrdered = eachOrdered(DIAGNOSTIC_KEYS);

/** The plan summary's keys, in the table's order. */
const PLAN_SUMMARY_KEYS = PLAN_ACTION_NAMES.map((action) => PLAN_ACTIONS[action].summaryKey);

/**
 * The plan as the JSON format writes it: the same data, keys in the documented order, the contract's version. The
 * one builder of the document, for the CLI's `--format json` and the programmatic API's results alike.
 */
export function buildPlanJson(plan: Plan): PlanDocument {
  const { version: _inMemory, ...data } = plan;
  const document: PlanDocument = { ...data, schemaVersion: SCHEMA_VERSION, ...buildPlanVerdict(plan) };
  return ordered(document, PLAN_KEYS, {
    target: objectOrdered(TARGET_KEYS),
    summary: objectOrdered(PLAN_SUMMARY_KEYS),
    items: eachOrdered(ITEM_KEYS, { changes: changesOrdered, diagnostics: diagnosticsOrdered }),
  });
}

export function renderPlanJson(plan: Plan): string {
  return `${jsonText(buildPlanJson(plan))}\n`;
}

/** The sync result as the JSON format writes it (the CLI's and the API's one builder). */
export function buildSyncJson(result: SyncResult): SyncDocument {
  // Keyed by the outcomes in camelCase (the values in `outcomes` keep their spelling).
  const summary = Object.fromEntries(
    SYNC_OUTCOME_NAMES.map((o) => [SYNC_OUTCOMES[o].summaryKey, result.summary[o]]),
  ) as SyncDocument['summary'];
  const document: SyncDocument = {
    ...result,
    plan: buildPlanJson(result.plan),
    summary,
    schemaVersion: SCHEMA_VERSION,
    ...buildSyncVerdict(result),
  };
  return ordered(document, SYNC_KEYS, {
    outcomes: eachOrdered(OUTCOME_KEYS, { changes: changesOrdered, diagnostics: diagnosticsOrdered }),
  });
}

export function renderSyncJson(result: SyncResult): string {
  return `${jsonText(buildSyncJson(result))}\n`;
}
