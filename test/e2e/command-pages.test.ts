import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_PAGES,
  commandPagePath,
  helpOutput,
  publicCommands,
  renderUsage,
  usageCommands,
} from '../../scripts/docs-usage.mjs';
import { COMMANDS } from '../../src/cli/program.js';
import { ROOT } from './helpers.js';

/**
 * docs/commands/: a page for every public command, and each page's usage blocks as the built CLI's `--help` prints
 * them now (`npm run docs:usage` rewrites them).
 */

const PUBLIC = COMMANDS.filter((entry) => entry.hidden !== true).map((entry) => entry.name);
const PAGES = readdirSync(join(ROOT, COMMAND_PAGES))
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.slice(0, -'.md'.length));

describe('docs/commands/', () => {
  it("a page for every public command, none for another; the script lists the commands the program's help does", () => {
    expect(PUBLIC.filter((name) => !existsSync(commandPagePath(name)))).toEqual([]);
    expect(PAGES.filter((name) => !PUBLIC.includes(name))).toEqual([]);
    expect(publicCommands().sort()).toEqual([...PUBLIC].sort());
  });

  for (const name of PUBLIC)
    it(`${COMMAND_PAGES}/${name}.md: its usage blocks are what --help prints`, () => {
      const text = readFileSync(commandPagePath(name), 'utf8');
      expect(usageCommands(text)[0]).toEqual([name, '--help']);
      // On a difference: npm run docs:usage
      expect(renderUsage(text, helpOutput)).toBe(text);
    });

  it('renderUsage puts back what --help prints over a stale block, and leaves the rest of the page alone', () => {
    const stale = [
      '# `wfsync validate`',
      '',
      '<!-- usage:start -->',
      '```',
      '$ wfsync validate --help',
      'Usage: wfsync validate [options] [an old argument]',
      '```',
      '<!-- usage:end -->',
      '',
      'After.',
      '',
    ].join('\n');
    const rendered = renderUsage(stale, helpOutput);
    expect(rendered).not.toBe(stale);
    expect(rendered).toContain(
      `$ wfsync validate --help\n${helpOutput(['validate', '--help']).trimEnd()}\n\`\`\``,
    );
    expect(rendered.endsWith('<!-- usage:end -->\n\nAfter.\n')).toBe(true);
  });
});
