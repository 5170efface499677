import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { listDocPages } from '../helpers/doc-pages.js';
import { BIN, makeExampleProject, makeProject, ROOT } from './helpers.js';
import {
  type Block,
  type Command,
  type Directive,
  extractBlocks,
  findMissingLine,
  isTranscript,
  parseCommandLine,
  parseShell,
  parseTranscript,
  strayDirectives,
} from './readme-blocks.js';

/**
 * Every example in the docs, run: README.md, CONTRIBUTING.md, SECURITY.md and every docs/**\/*.md
 * (test/helpers/doc-pages.ts; the conventions: CONTRIBUTING.md, "Development"). Blocks of one `##` section of a page share a
 * temp project and run in order; `wfsync` and `npx wfsync` are the built CLI (a `wfsync` script first on PATH).
 */

interface Page {
  /** Relative to the repository, `/` separators: README.md, docs/commands/plan.md. */
  path: string;
  text: string;
  blocks: Block[];
}

const PAGES: Page[] = listDocPages(ROOT).map((path) => {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return { path, text, blocks: extractBlocks(text, path) };
});
const ALL_BLOCKS = PAGES.flatMap((page) => page.blocks);

const SHIM_DIR = mkdtempSync(join(tmpdir(), 'wfsync-readme-bin-'));
writeFileSync(join(SHIM_DIR, 'wfsync'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(SHIM_DIR, 'wfsync'), 0o755);
const ENV = {
  PATH: `${SHIM_DIR}${delimiter}${process.env.PATH}`,
  HOME: process.env.HOME,
  NO_COLOR: '1',
  TZ: 'UTC',
};
const PACKAGE_JSON = JSON.stringify({
  name: 'acme-app',
  private: true,
  devDependencies: { wfsync: '^0.1.0' },
});
const projects: string[] = [SHIM_DIR];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface Shell {
  child: ChildProcess;
  done: Promise<Ran>;
  /** stdout so far. */
  output(): string;
}

function shell(text: string, cwd: string): Shell {
  const child = spawn('bash', ['-c', text.replaceAll('npx wfsync', 'wfsync')], { cwd, env: ENV });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  return { child, done, output: () => stdout };
}

function describeRun(command: Command, ran: Ran): string {
  return `$ ${command.text}\n(exit ${ran.status}; allowed ${command.exits.join(', ')})\n${ran.stdout}${ran.stderr}`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The commands of one block, with what background processes (the emulator) printed and the ports remapped. */
class BlockRunner {
  private readonly background: Array<Shell & { command: Command }> = [];
  private readonly ports = new Map<string, string>();
  private printed = '';

  constructor(private readonly cwd: string) {}

  async prepare(commands: readonly Command[]): Promise<void> {
    // A fixed port in the README (`--port 4010`) could be taken on this machine or by a parallel test.
    for (const command of commands)
      for (const [, port] of command.text.matchAll(/--port (\d+)/g))
        if (port !== '0' && !this.ports.has(port!)) this.ports.set(port!, String(await freePort()));
  }

  private resolve(text: string): string {
    let resolved = text;
    for (const [from, to] of this.ports)
      resolved = resolved.replace(new RegExp(`(?<=:|--port )${from}\\b`, 'g'), to);
    return resolved.replace(/<([^<>\s][^<>]*)>/g, (placeholder, name: string) => {
      const value = /key/i.test(name)
        ? /API key: ([^)\s]+)/.exec(this.printed)?.[1]
        : /group/i.test(name)
          ? /notification group id: ([0-9a-f]{24})/.exec(this.printed)?.[1]
          : undefined;
      if (value === undefined) throw new Error(`nothing printed so far fills ${placeholder}`);
      return value;
    });
  }

  async run(command: Command): Promise<Ran> {
    const text = this.resolve(command.text);
    if (!command.background) {
      const ran = await shell(text, this.cwd).done;
      expect(command.exits, describeRun(command, ran)).toContain(ran.status);
      return ran;
    }
    const started = shell(`exec ${text}`, this.cwd);
    this.background.push({ ...started, command });
    // Ready once it has printed its first lines (the emulator: URL, key, group id).
    const { output } = started;
    for (let waited = 0; !/\n.*\n/.test(output()); waited += 50) {
      if (started.child.exitCode !== null || waited > 15_000)
        throw new Error(`background command did not start: ${text}\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.printed += output();
    return { status: null, stdout: output(), stderr: '' };
  }

  async stop(): Promise<void> {
    for (const { child, done, command } of this.background.splice(0)) {
      child.kill('SIGINT');
      // Only so that one that ignores Ctrl-C cannot outlive the test; its exit code then fails the check below.
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const ran = await done.finally(() => clearTimeout(kill));
      expect(command.exits, describeRun(command, ran)).toContain(ran.status);
    }
  }
}

function newProject(template: 'examples' | 'empty' | 'init'): Promise<string> | string {
  const dir = template === 'examples' ? makeExampleProject() : makeProject({ 'package.json': PACKAGE_JSON });
  projects.push(dir);
  if (template !== 'init') return dir;
  return new BlockRunner(dir).run(parseCommandLine('wfsync init')).then(() => dir);
}

/** Set a JSON pointer's target inside `root`. */
function setPointer(root: unknown, pointer: string, value: unknown): void {
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = keys.pop()!;
  let node = root as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (!(last in node)) throw new Error(`no ${pointer} to change`);
  node[last] = value;
}

async function applyDirective(directive: Directive, block: Block, cwd: string): Promise<void> {
  if (directive.kind === 'replace') {
    const path = join(cwd, directive.file);
    const text = readFileSync(path, 'utf8');
    expect(text.split(directive.from).length - 1, `"${directive.from}" once in ${directive.file}`).toBe(1);
    writeFileSync(path, text.replace(directive.from, directive.to));
  } else if (directive.kind === 'write') {
    mkdirSync(dirname(join(cwd, directive.file)), { recursive: true });
    writeFileSync(join(cwd, directive.file), block.body);
  } else if (directive.kind === 'run') {
    await new BlockRunner(cwd).run(directive.command);
  } else if (directive.kind === 'service-edit') {
    // A stand-in for an edit in the dashboard: change the workflow the local target's service holds.
    const service = await startEmulator({ dataFile: join(cwd, '.wfsync/local-service.json') });
    try {
      service.editWorkflow(directive.identifier, (workflow) =>
        setPointer(workflow, directive.pointer, directive.value),
      );
    } finally {
      await service.close();
    }
  }
}

describe('the examples of every page, as data', () => {
  for (const page of PAGES)
    it(`${page.path}: every readme-test comment sits right before a block, every block is runnable, data for one, or skipped`, () => {
      expect(strayDirectives(page.text)).toEqual([]);
      const unchecked = page.blocks.filter(
        (b) =>
          !isTranscript(b) &&
          b.lang !== 'sh' &&
          !b.directives.some((d) => d.kind === 'write' || d.kind === 'skip'),
      );
      // Output shown without the command that makes it cannot be checked: write it as `$ wfsync …` and its output.
      expect(unchecked.map((b) => `${page.path}:${b.line} (${b.lang || 'no language'})`)).toEqual([]);
      // A console block shows commands and their output: it runs from its first `$ ` line, or says why it cannot.
      const unrun = page.blocks.filter(
        (b) => b.lang === 'console' && !isTranscript(b) && !b.directives.some((d) => d.kind === 'skip'),
      );
      expect(
        unrun.map((b) => `${page.path}:${b.line}: a console block that does not start with "$ "`),
      ).toEqual([]);
    });

  it('few blocks skipped, many commands run, in all pages together', () => {
    const skips = ALL_BLOCKS.flatMap((b) => b.directives.filter((d) => d.kind === 'skip'));
    // README, CONTRIBUTING (2), the adopting and local dry run guides, and docs/ARCHITECTURE.md's map of the folders.
    expect(skips.length).toBeLessThanOrEqual(6);
    const commands = ALL_BLOCKS.filter((b) => !b.directives.some((d) => d.kind === 'skip')).flatMap((b) =>
      b.lang === 'sh'
        ? parseShell(b.body)
        : isTranscript(b)
          ? parseTranscript(b.body).map((s) => s.command)
          : [],
    );
    expect(commands.length).toBeGreaterThanOrEqual(15);
  });

  it('the extractor: continuations, comments, exit codes, background commands, transcripts', () => {
    const block = [
      'wfsync emulate --port 4010 &   # prints a key',
      'FOO="a # not a comment" \\',
      '  wfsync plan --target dev     # exit 0 or 2: changes',
      '# a comment line',
      'wfsync validate && wfsync sync   # exit 3',
      '',
    ].join('\n');
    expect(parseShell(block)).toEqual([
      { text: 'wfsync emulate --port 4010', exits: [0], background: true },
      { text: 'FOO="a # not a comment" wfsync plan --target dev', exits: [0, 2], background: false },
      { text: 'wfsync validate && wfsync sync', exits: [3], background: false },
    ]);
    expect(
      parseTranscript('$ wfsync plan   # exit 2\nPlan: 1 to create\n…\n\n$ wfsync sync\nSync: done\n'),
    ).toEqual([
      { command: { text: 'wfsync plan', exits: [2], background: false }, expected: ['Plan: 1 to create'] },
      { command: { text: 'wfsync sync', exits: [0], background: false }, expected: ['Sync: done'] },
    ]);
    expect(
      findMissingLine(
        ['a', '    id: 0123456789abcdef01234567', 'c'],
        'a\nb\n    id: 6b014b941d71a5b12fb58023\nc\n',
        '',
      ),
    ).toBe(undefined);
    expect(findMissingLine(['c', 'a'], 'a\nc\n', '')).toBe('a');
    expect(findMissingLine(['wfsync: oops'], '', 'wfsync: oops\n')).toBe(undefined);
  });
});

// Each page's sections, each with a temp project of its own.
for (const page of PAGES) {
  const sections = [...new Set(page.blocks.map((b) => b.section))];
  for (const section of sections) describeSection(page, section);
}

function describeSection(page: Page, section: string): void {
  describe(`${page.path}: ${section || '(top)'}`, () => {
    let cwd: string | undefined;
    for (const block of page.blocks.filter((b) => b.section === section)) {
      const skip = block.directives.find((d) => d.kind === 'skip');
      const title = `${page.path}:${block.line} (${block.lang || 'output'})`;
      if (skip) {
        it.skip(`${title}: ${skip.reason}`, () => {});
        continue;
      }
      it(title, async () => {
        for (const directive of block.directives) {
          if (directive.kind === 'project') cwd = await newProject(directive.template);
          else {
            cwd ??= await newProject('examples');
            await applyDirective(directive, block, cwd);
          }
        }
        cwd ??= await newProject('examples');
        const runner = new BlockRunner(cwd);
        try {
          if (isTranscript(block)) {
            const steps = parseTranscript(block.body);
            await runner.prepare(steps.map((s) => s.command));
            for (const step of steps) {
              const ran = await runner.run(step.command);
              const missing = findMissingLine(step.expected, ran.stdout, ran.stderr);
              expect(
                missing,
                `not in the output of $ ${step.command.text}:\n${ran.stdout}${ran.stderr}`,
              ).toBe(undefined);
            }
          } else if (block.lang === 'sh') {
            const commands = parseShell(block.body);
            await runner.prepare(commands);
            for (const command of commands) await runner.run(command);
          }
        } finally {
          await runner.stop();
        }
      }, 60_000);
    }
  });
}
