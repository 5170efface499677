import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleInfos } from '../../src/validate/rules/index.js';
import { makeProject, ROOT, runCli } from './helpers.js';
import { extractBlocks, isTranscript, parseTranscript } from './readme-blocks.js';

/**
 * docs/reference/rules.md: an entry (a `## <rule>` section) for every rule `validate --list-rules` lists, and each
 * entry's example, written into an empty project and validated by the built CLI, reports that rule and no other.
 * (The README test runs the same examples and checks the output the page shows.)
 */

const PAGE = 'docs/reference/rules.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');
const BLOCKS = extractBlocks(TEXT, PAGE);
const SECTIONS = [...new Set(BLOCKS.map((block) => block.section))].filter((section) => section !== '');
const RULE_CODES = ruleInfos().map((info) => info.code);

describe(PAGE, () => {
  it('an entry for every rule, in the order --list-rules gives, and none for another', () => {
    expect(SECTIONS).toEqual(RULE_CODES);
  });

  it('every entry says how to fix what it reports (a **Fix:** paragraph)', () => {
    const entries = TEXT.split(/^## /m).slice(1);
    const unfixed = entries.filter((entry) => !/^\*\*Fix:\*\* \S/m.test(entry)).map((e) => e.split('\n')[0]);
    expect(entries).toHaveLength(RULE_CODES.length);
    expect(unfixed).toEqual([]);
  });

  for (const rule of SECTIONS)
    it(`${rule}: the example reports ${rule} and no other rule`, async () => {
      const cwd = makeProject({});
      const blocks = BLOCKS.filter((block) => block.section === rule);
      for (const block of blocks)
        for (const directive of block.directives)
          if (directive.kind === 'write') {
            mkdirSync(dirname(join(cwd, directive.file)), { recursive: true });
            writeFileSync(join(cwd, directive.file), block.body);
          }
      const commands = blocks.filter(isTranscript).flatMap((block) => parseTranscript(block.body));
      expect(commands.map((step) => step.command.text.split(' ')[1])).toEqual(['validate']);
      const args = commands[0]!.command.text.split(/\s+/).slice(1);
      const ran = await runCli([...args, '--format', 'json'], { cwd });
      const { diagnostics } = JSON.parse(ran.stdout) as { diagnostics: Array<{ code: string }> };
      expect([...new Set(diagnostics.map((d) => d.code))]).toEqual([rule]);
    });
});
