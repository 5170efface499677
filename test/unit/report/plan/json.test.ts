import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../src/plan/types.js';
import { renderPlanJson, renderSyncJson } from '../../../../src/report/plan/json.js';
import { buildFixturePlan, buildFixtureSync, diagnostic, item, planOf } from './fixture-plan.js';

describe('renderPlanJson', () => {
  it('is the plan itself under schemaVersion and its verdict: parsing it back gives the same plan', () => {
    const plan = buildFixturePlan();
    const { schemaVersion, exitCode, needsPerson, meaning, ...parsed } = JSON.parse(
      renderPlanJson(plan),
    ) as Record<string, unknown>;
    // JSON drops undefined fields (the fixture's orphaned item has `file: undefined`).
    const { version: _inMemory, ...expected } = JSON.parse(JSON.stringify(plan)) as Plan;
    expect(parsed).toEqual(expected);
    expect(schemaVersion).toBe(4);
    // The fixture has an error item (1 wins) and five that need a person, in item order.
    expect({ exitCode, needsPerson, meaning }).toEqual({
      exitCode: 1,
      needsPerson: ['comment-reply', 'invoice-paid', 'trial-ending', 'welcome', 'legacy-promo'],
      meaning: 'an unexpected failure: the service unreachable or failing, an I/O error, or a bug',
    });
  });

  it('says 6 and who needs a person when nothing failed, 2 when there is only something to create', () => {
    const verdictOf = (plan: Plan) => {
      const { exitCode, needsPerson, meaning } = JSON.parse(renderPlanJson(plan));
      return { exitCode, needsPerson, meaning };
    };
    expect(verdictOf(planOf([item('a', 'create'), item('b', 'drifted'), item('c', 'orphaned')]))).toEqual({
      exitCode: 6,
      needsPerson: ['b', 'c'],
      meaning: 'a workflow needs a person',
    });
    expect(verdictOf(planOf([item('a', 'create'), item('b', 'in-sync')]))).toEqual({
      exitCode: 2,
      needsPerson: [],
      meaning: 'changes that sync applies (workflows to create, update or delete)',
    });
    expect(verdictOf(planOf([item('b', 'in-sync')]))).toMatchObject({ exitCode: 0, meaning: 'success' });
  });

  it('has 2-space indentation and one trailing newline', () => {
    const out = renderPlanJson(buildFixturePlan());
    expect(
      out.startsWith('{\n  "schemaVersion": 4,\n  "exitCode": 1,\n  "needsPerson": [\n    "comment-reply",'),
    ).toBe(true);
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.endsWith('\n\n')).toBe(false);
  });

  it('writes keys in a fixed order whatever order the plan was built in', () => {
    const a = buildFixturePlan();
    const reversed = (value: object) => Object.fromEntries(Object.entries(value).reverse());
    const b = reversed({
      ...a,
      target: reversed(a.target),
      summary: reversed(a.summary),
      items: a.items.map((i) => reversed({ ...i, changes: i.changes.map(reversed) })),
    }) as Plan;
    expect(renderPlanJson(b)).toBe(renderPlanJson(a));
    const keys = Object.keys(JSON.parse(renderPlanJson(a)).items[0]);
    expect(keys.slice(0, 4)).toEqual(['identifier', 'action', 'file', 'name']);
  });

  it('keeps fields it does not know, after the known ones, sorted', () => {
    const plan = planOf([{ ...item('a', 'create'), zeta: 1, alpha: 2 } as never]);
    const keys = Object.keys(JSON.parse(renderPlanJson(plan)).items[0]);
    expect(keys).toEqual(['identifier', 'action', 'file', 'changes', 'next', 'alpha', 'zeta']);
  });

  it('writes diagnostics in the same key order as validate --format json', () => {
    const plan = planOf([item('a', 'error', { diagnostics: [{ ...diagnostic(), pointer: '/x' }] })]);
    const d = JSON.parse(renderPlanJson(plan)).items[0].diagnostics[0];
    expect(Object.keys(d)).toEqual([
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'severity',
      'code',
      'message',
      'pointer',
    ]);
  });

  it('leaves the body (what sync will POST) exactly as given', () => {
    const body = {
      name: 'N',
      notificationGroupId: 'g',
      steps: [{ template: { type: 'sms', content: 'x' } }],
      active: true,
    };
    const parsed = JSON.parse(renderPlanJson(planOf([item('n', 'create', { body })])));
    expect(JSON.stringify(parsed.items[0].body)).toBe(JSON.stringify(body));
  });
});

describe('renderSyncJson', () => {
  it('is {schemaVersion, exitCode, needsPerson, meaning, plan, outcomes, summary, interrupted, status}, summary camelCase in outcome order', () => {
    const result = buildFixtureSync();
    const parsed = JSON.parse(renderSyncJson(result));
    expect(Object.keys(parsed)).toEqual([
      'schemaVersion',
      'exitCode',
      'needsPerson',
      'meaning',
      'plan',
      'outcomes',
      'summary',
      'interrupted',
      'status',
    ]);
    expect(parsed.schemaVersion).toBe(4);
    expect(Object.keys(parsed.summary)).toEqual([
      'created',
      'updated',
      'deleted',
      'promoted',
      'inSync',
      'drifted',
      'changedLocally',
      'missingRemotely',
      'conflict',
      'orphaned',
      'failed',
      'skipped',
    ]);
    expect(Object.values(parsed.summary)).toEqual(Object.values(result.summary));
    // The plan inside is the plan document itself: `jq .plan` gives a file `sync --plan` reads.
    expect(parsed.plan).toEqual(JSON.parse(renderPlanJson(result.plan)));
    expect(parsed.outcomes).toEqual(JSON.parse(JSON.stringify(result.outcomes)));
    expect(parsed.interrupted).toBe(true);
    expect(parsed.status).toBe('failed');
  });
});
