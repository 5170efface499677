import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGithubWorkflows } from '../../../src/scaffold/ci/index.js';
import { CI_API_KEY_ENV, CI_TARGET } from '../../../src/scaffold/config-file.js';
import { REPO_ROOT } from '../../helpers/doc-pages.js';

/**
 * The README's sentences about what the program does where no example shows it (the README test runs its commands):
 * "In your CI" and "Quick start", held to the scaffold and the package's scripts.
 */
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

/** A `## ` section's text, lines joined by single spaces. */
function section(title: string): string {
  const found = README.split(/^## /m).find((part) => part.startsWith(`${title}\n`));
  expect(found, `README.md has a "## ${title}" section`).toBeDefined();
  return found!.replace(/\s+/g, ' ');
}

describe('README.md', () => {
  it('"In your CI": as many GitHub workflows as init writes, and the target and secret they read', () => {
    const text = section('In your CI');
    const workflows = buildGithubWorkflows();
    expect(text).toContain(
      `\`npx wfsync init\` writes ${NUMBERS[workflows.length]} GitHub Actions workflows`,
    );
    expect(text).toContain(`the \`${CI_TARGET}\` target`);
    expect(text).toContain(`the repository secret \`${CI_API_KEY_ENV}\``);
    for (const { path, text: workflow } of workflows)
      expect(workflow, path).toContain(`secrets.${CI_API_KEY_ENV}`);
  });

  it('"Quick start": `npm start` builds and runs `wfsync sync`', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(section('Quick start')).toContain('`npm start` runs `wfsync sync`');
    expect(scripts.start).toMatch(/ && node bin\/wfsync\.cjs sync$/);
  });
});
