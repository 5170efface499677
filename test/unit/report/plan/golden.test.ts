import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPlanStepSummary, renderSyncStepSummary } from '../../../../src/report/plan/markdown.js';
import { planRenderers, syncRenderers } from '../../../../src/report/plan/renderers.js';
import { buildFixturePlan, buildFixtureSync, FIXTURES } from './fixture-plan.js';

// Goldens are reviewed by eye once, then compared byte for byte. Regenerate with UPDATE_GOLDEN=1.
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const GOLDEN_DIR = new URL('golden/', FIXTURES);

function expectGolden(name: string, actual: string): void {
  const url = new URL(name, GOLDEN_DIR);
  if (UPDATE || !existsSync(url)) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(url, actual);
    if (!UPDATE) throw new Error(`golden ${name} was missing and has been written: review it, then rerun`);
    return;
  }
  expect(actual).toBe(readFileSync(url, 'utf8'));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI codes is the point
const stripAnsi = (text: string) => text.replace(/\x1b\[\d+m/g, '');

describe('golden output for the fixture plan', () => {
  const plan = buildFixturePlan();
  const cases: Array<[string, () => string]> = [
    ['plan.human.txt', () => planRenderers.human(plan, { color: false, command: 'plan' })],
    ['plan.human-color.txt', () => planRenderers.human(plan, { color: true, command: 'plan' })],
    [
      'plan.human-show-ignored.txt',
      () => planRenderers.human(plan, { color: false, command: 'plan', showIgnored: true }),
    ],
    ['plan.json', () => planRenderers.json(plan, { color: false, command: 'plan' })],
    ['plan.markdown.md', () => planRenderers.markdown(plan, { color: false, command: 'plan' })],
    ['plan.github.txt', () => planRenderers.github(plan, { color: true, command: 'plan' })],
    ['plan.step-summary.md', () => renderPlanStepSummary(plan)],
  ];
  it.each(cases)('%s', (name, render) => {
    expectGolden(name, render());
  });

  it('color is the only difference between human with and without color', () => {
    const plain = planRenderers.human(plan, { color: false, command: 'plan' });
    expect(stripAnsi(planRenderers.human(plan, { color: true, command: 'plan' }))).toBe(plain);
  });
});

describe('golden output for the fixture sync result', () => {
  const result = buildFixtureSync();
  const cases: Array<[string, () => string]> = [
    ['sync.human.txt', () => syncRenderers.human(result, { color: false, command: 'sync' })],
    ['sync.human-color.txt', () => syncRenderers.human(result, { color: true, command: 'sync' })],
    ['sync.json', () => syncRenderers.json(result, { color: false, command: 'sync' })],
    ['sync.markdown.md', () => syncRenderers.markdown(result, { color: false, command: 'sync' })],
    ['sync.github.txt', () => syncRenderers.github(result, { color: false, command: 'sync' })],
    ['sync.step-summary.md', () => renderSyncStepSummary(result)],
  ];
  it.each(cases)('%s', (name, render) => {
    expectGolden(name, render());
  });

  it('color is the only difference between human with and without color', () => {
    const plain = syncRenderers.human(result, { color: false, command: 'sync' });
    expect(stripAnsi(syncRenderers.human(result, { color: true, command: 'sync' }))).toBe(plain);
  });
});
