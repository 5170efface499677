import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGithubStepSummary } from '../../../src/report/github-summary.js';
import { validateRenderers } from '../../../src/report/validate-renderers.js';
import { buildFixtureReport, FIXTURES } from './fixture-report.js';

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

describe('golden output for the fixture report', () => {
  const report = buildFixtureReport();
  const cases: Array<[string, () => string]> = [
    ['validate.human.txt', () => validateRenderers.human(report, { color: false })],
    ['validate.human-color.txt', () => validateRenderers.human(report, { color: true })],
    ['validate.json', () => validateRenderers.json(report, { color: false })],
    ['validate.github.txt', () => validateRenderers.github(report, { color: false })],
    ['validate.step-summary.md', () => renderGithubStepSummary(report)],
    ['validate.junit.xml', () => validateRenderers.junit(report, { color: false })],
    ['validate.sarif.json', () => validateRenderers.sarif(report, { color: false, cwd: '/home/ci/my repo' })],
  ];
  it.each(cases)('%s', (name, render) => {
    expectGolden(name, render());
  });

  it('color is the only difference between human with and without color', () => {
    const plain = validateRenderers.human(report, { color: false });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI codes is the point
    const stripped = validateRenderers.human(report, { color: true }).replace(/\x1b\[\d+m/g, '');
    expect(stripped).toBe(plain);
  });
});
