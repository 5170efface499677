import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SYNC_OUTCOME_NAMES, SYNC_OUTCOMES, SYNC_STATUSES } from '../../../src/apply/result.js';
import { EXIT_MEANINGS } from '../../../src/exit-codes.js';
import { PLAN_ACTION_NAMES, PLAN_ACTIONS } from '../../../src/plan/actions.js';

/**
 * The tables are the one place an action, an outcome or an exit code is written: the output schemas (what editors and
 * users validate against) and the exit-code table of docs/reference/exit-codes.md are held to them here, enums and
 * key order alike.
 */

interface SchemaNode {
  enum?: string[];
  required?: string[];
  properties?: Record<string, SchemaNode>;
}

const schema = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../schemas/${name}`, import.meta.url), 'utf8')) as {
    $defs: Record<string, { properties: Record<string, SchemaNode> }>;
  };
const plan = schema('plan-output.schema.json').$defs;
const sync = schema('sync-output.schema.json').$defs;
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe('the plan-action table', () => {
  it('is the schema enum of an item action, in order', () => {
    expect(plan.PlanItem!.properties.action!.enum).toEqual(PLAN_ACTION_NAMES);
  });

  it("is the schema's summary, each action under its camelCase summary key, in order", () => {
    const keys = PLAN_ACTION_NAMES.map((action) => PLAN_ACTIONS[action].summaryKey);
    expect(keys).toEqual(PLAN_ACTION_NAMES.map(camel));
    expect(plan.PlanOutput!.properties.summary!.required).toEqual(keys);
    expect(Object.keys(plan.PlanOutput!.properties.summary!.properties ?? {})).toEqual(keys);
  });
});

describe('the sync-outcome table', () => {
  it("is the schema enum of an outcome and the summary's keys, in order", () => {
    expect(sync.SyncItemResult!.properties.outcome!.enum).toEqual(SYNC_OUTCOME_NAMES);
    const keys = SYNC_OUTCOME_NAMES.map((outcome) => SYNC_OUTCOMES[outcome].summaryKey);
    expect(keys).toEqual(SYNC_OUTCOME_NAMES.map(camel));
    expect(sync.SyncOutput!.properties.summary!.required).toEqual(keys);
  });

  it('gives the statuses of the schema', () => {
    expect(sync.SyncOutput!.properties.status!.enum).toEqual(Object.keys(SYNC_STATUSES));
  });

  it('shares every row the plan has with the plan: a drifted outcome reads as a drifted item', () => {
    for (const outcome of SYNC_OUTCOME_NAMES) {
      if (!(outcome in PLAN_ACTIONS)) continue;
      const { symbol, label, needsPerson, exitCode } = PLAN_ACTIONS[outcome as keyof typeof PLAN_ACTIONS];
      expect(SYNC_OUTCOMES[outcome], outcome).toMatchObject({ symbol, label, needsPerson, exitCode });
    }
  });
});

describe('the exit-code table', () => {
  it('lists the codes of docs/reference/exit-codes.md, no more, no fewer', () => {
    const section = readFileSync(new URL('../../../docs/reference/exit-codes.md', import.meta.url), 'utf8');
    const codes = [...section.matchAll(/^\| (\d+) +\|/gm)].map((m) => Number(m[1]));
    expect(codes).toEqual(Object.keys(EXIT_MEANINGS).map(Number));
  });
});
