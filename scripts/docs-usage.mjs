#!/usr/bin/env node
// The usage blocks of docs/commands/*.md, generated from the program's own `--help` (npm run docs:usage builds
// first; the script alone runs the built CLI). A block is a transcript between markers, the command first:
//
//   <!-- usage:start -->
//   ```
//   $ wfsync plan --help
//   Usage: wfsync plan [options] [paths...]
//   …
//   ```
//   <!-- usage:end -->
//
// `--check` changes nothing and exits 1 when a block differs from `--help` or a public command has no page;
// test/e2e/command-pages.test.ts holds the docs to the same.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const COMMAND_PAGES = 'docs/commands';

const USAGE_BLOCK = /<!-- usage:start -->\n```\n\$ wfsync ([^\n]*)\n[\s\S]*?```\n<!-- usage:end -->/g;

/** What `wfsync ARGS` prints on stdout, from the built CLI, as a terminal-less run sees it (80 columns, no colour). */
export function helpOutput(args) {
  const ran = spawnSync(process.execPath, [join(ROOT, 'bin/wfsync.cjs'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC' },
  });
  if (ran.status !== 0) throw new Error(`wfsync ${args.join(' ')} exited ${ran.status}:\n${ran.stderr}`);
  return ran.stdout;
}

/** The arguments of each usage block of a page (`['plan', '--help']`), in order. */
export function usageCommands(text) {
  return [...text.matchAll(USAGE_BLOCK)].map((match) => match[1].trim().split(/\s+/));
}

/** The page with every usage block's output replaced by what `help(args)` prints now. */
export function renderUsage(text, help) {
  return text.replace(USAGE_BLOCK, (_block, command) => {
    const output = help(command.trim().split(/\s+/)).trimEnd();
    return `<!-- usage:start -->\n\`\`\`\n$ wfsync ${command.trim()}\n${output}\n\`\`\`\n<!-- usage:end -->`;
  });
}

/** The public commands, as the program's own help lists them (the `help` command aside). */
export function publicCommands(help = helpOutput) {
  const text = help(['--help']);
  const list = text.slice(text.indexOf('\nCommands:\n'));
  return [...list.matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((match) => match[1])
    .filter((name) => name !== 'help');
}

export function commandPagePath(command) {
  return join(ROOT, COMMAND_PAGES, `${command}.md`);
}

function main(check) {
  const problems = [];
  for (const command of publicCommands())
    if (!existsSync(commandPagePath(command))) problems.push(`${COMMAND_PAGES}/${command}.md: missing`);
  for (const name of readdirSync(join(ROOT, COMMAND_PAGES))
    .filter((n) => n.endsWith('.md'))
    .sort()) {
    const path = join(ROOT, COMMAND_PAGES, name);
    const text = readFileSync(path, 'utf8');
    const rendered = renderUsage(text, helpOutput);
    if (rendered === text) continue;
    if (check) problems.push(`${COMMAND_PAGES}/${name}: a usage block differs from --help`);
    else {
      writeFileSync(path, rendered);
      process.stdout.write(`${COMMAND_PAGES}/${name}: usage updated\n`);
    }
  }
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.includes('--check'));
