import { describe, expect, it } from 'vitest';
import type { CreatePreview, PlanItem } from '../../../../src/plan/types.js';
import { renderPlanGithub } from '../../../../src/report/plan/github.js';
import { renderPlanHuman } from '../../../../src/report/plan/human.js';
import { renderPlanMarkdown } from '../../../../src/report/plan/markdown.js';
import { formatChange, summarizeChange } from '../../../../src/report/plan/text.js';
import { aPlanItem } from '../../../helpers/plan-item.js';
import { change, planOf } from './fixture-plan.js';

describe('summarizeChange: lists and objects at their first difference', () => {
  it('a list shows the first differing element, not an identical prefix, and the lengths', () => {
    const tags = change('tags', '/tags', ['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'x', 'e']);
    expect(formatChange(tags)).toBe('tags[3]: "d" → "x" (4 → 5 items; and other differences)');
    const appended = change('tags', '/tags', ['a', 'b'], ['a', 'b', 'c']);
    expect(formatChange(appended)).toBe('tags[2]: (not set) → "c" (2 → 3 items)');
  });

  it('an object shows the first differing key, followed down nested values', () => {
    const data = change(
      'data',
      '/data',
      { region: 'eu', customer: { name: 'Ann', tier: 'gold' } },
      { region: 'eu', customer: { name: 'Bob', tier: 'gold' } },
    );
    expect(summarizeChange(data)).toEqual({
      path: 'data.customer.name',
      actual: '"Ann"',
      desired: '"Bob"',
      note: '',
    });
    const odd = change('data', '/data', { 'a b': 1 }, { 'a b': 2 });
    expect(formatChange(odd)).toBe('data["a b"]: 1 → 2');
  });

  it('values of another kind, and sides that are absent, are shown whole', () => {
    expect(formatChange(change('data', '/data', [1], { a: 1 }))).toBe('data: [1] → {"a":1}');
    expect(formatChange(change('steps[2] "x"', '/steps/2', { name: 'x' }, undefined))).toBe(
      'steps[2] "x": {"name":"x"} → (not set)',
    );
  });
});

const PREVIEW: CreatePreview = {
  trigger: 'welcome',
  steps: [
    { name: 'mail', type: 'email', subject: 'Hi {{name}}' },
    { name: 'inbox', type: 'in_app', active: false },
  ],
  payload: [{ name: 'name', type: 'String' }],
  payloadFrom: 'derived',
  subscriberVariables: ['email'],
  group: { id: 'bbbbbbbbbbbbbbbbbbbbbbbb', name: 'transactional', from: 'named' },
};

const DRIFTED: PlanItem = {
  identifier: 'order-shipped',
  action: 'drifted',
  attribution: 'state',
  file: 'workflows/order-shipped.yaml',
  changes: [change('critical', '/critical', true, false)],
  diff: '--- service: order shipped\n+++ workflows/order-shipped.yaml\n@@ -6,1 +6,1 @@\n-critical: true\n+critical: false\n',
  diffKind: 'file',
  line: 6,
  endLine: 6,
  next: 'pull it',
};

const CREATE: PlanItem = aPlanItem('welcome', 'create', {
  file: 'workflows/welcome.yaml',
  next: 'sync creates it',
  preview: PREVIEW,
});

const OPTIONS = { color: false, command: 'plan' as const };

describe('plan formats: the file line, create previews, projection diffs', () => {
  it('human: file:line in the headline, the preview under a create, the note above a projection diff', () => {
    const projection: PlanItem = {
      ...DRIFTED,
      identifier: 'other',
      diffKind: 'projection',
      line: 9,
      endLine: 9,
    };
    const out = renderPlanHuman(planOf([CREATE, DRIFTED, projection]), OPTIONS);
    expect(out).toContain('order-shipped  workflows/order-shipped.yaml:6\n');
    expect(out).toContain(
      [
        '    trigger: welcome · group: group:transactional bbbbbbbbbbbbbbbbbbbbbbbb',
        '    payload (as the service derives it): name (String) · subscriber: email',
        '    steps: 1. mail (email) "Hi {{name}}" · 2. inbox (in_app, inactive)',
      ].join('\n'),
    );
    expect(out).toContain('other  workflows/order-shipped.yaml:9\n');
    expect(out.match(/the compared fields as YAML/g)).toHaveLength(1);
    expect(out).toContain(
      "other  workflows/order-shipped.yaml:9\n    fields (service → file):\n      critical: true → false\n    the compared fields as YAML (line numbers are not the file's):\n    --- service: order shipped\n",
    );
  });

  it('github: the annotation points at the changed lines; a create notice carries its preview', () => {
    const out = renderPlanGithub(planOf([CREATE, { ...DRIFTED, line: 6, endLine: 8 }]), OPTIONS);
    expect(out).toContain(
      '::warning file=workflows/order-shipped.yaml,line=6,endLine=8,title=wfsync plan (drifted)::',
    );
    expect(out).toMatch(
      /::notice file=workflows\/welcome.yaml,title=wfsync plan \(create\)::welcome: create%0Atrigger: welcome · group: group:transactional/,
    );
  });

  it('markdown: file:line in the summary and the preview in the details', () => {
    const out = renderPlanMarkdown(planOf([CREATE, DRIFTED]), { command: 'plan' });
    expect(out).toContain('· workflows/order-shipped.yaml:6</summary>');
    expect(out).toContain(
      'Will create:\n\n- Trigger: `welcome` · group: `group:transactional bbbbbbbbbbbbbbbbbbbbbbbb`',
    );
    expect(out).toContain('- Steps: `1. mail (email) "Hi {{name}}"`, `2. inbox (in_app, inactive)`');
  });
});
