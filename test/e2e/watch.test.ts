import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validNumbered } from '../fixtures/workflow-texts.js';
import { BIN, makeExampleProject, makeProject, ROOT, runCli } from './helpers.js';
import { extractBlocks, findMissingLine, parseTranscript } from './readme-blocks.js';

/** The built CLI left running, with its output so far and a way to wait for what comes next. */
interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolve with the match once stdout (after the previous match) matches; fail after a generous deadline. */
  next(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolve once stderr holds `text`. */
  stderrHas(text: string): Promise<void>;
  /** Send a signal and wait for the exit. */
  stop(signal: NodeJS.Signals): Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
}

const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC' },
  });
  started.push(child);
  let out = '';
  let err = '';
  let cursor = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    notify();
  });
  const closed = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (status, signal) => resolve({ status, signal })),
  );
  child.on('close', notify);
  const waitUntil = <T>(check: () => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const listener = () => {
        const found = check();
        if (found !== undefined) done(() => resolve(found));
        else if (child.exitCode !== null)
          done(() => reject(new Error(`exited (${child.exitCode}) before ${what}\n${out}\n${err}`)));
      };
      // A deadline only so that a broken watcher fails the test instead of hanging it; never asserted on.
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${what} after 20 s; stdout:\n${out}\nstderr:\n${err}`))),
        20_000,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(listener);
        settle();
      };
      listeners.add(listener);
      listener();
    });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    next: (pattern) =>
      waitUntil(() => {
        const regex = new RegExp(
          pattern.source,
          pattern.flags.includes('m') ? pattern.flags : `${pattern.flags}m`,
        );
        const match = regex.exec(out.slice(cursor));
        if (!match) return undefined;
        cursor += match.index + match[0].length;
        return match;
      }, String(pattern)),
    stderrHas: (text) =>
      waitUntil(() => (err.includes(text) ? true : undefined), JSON.stringify(text)).then(),
    stop: (signal) => {
      child.kill(signal);
      return closed;
    },
  };
}

/** Wait (at most 20 s, never asserted on) until `check` holds for the process's output so far. */
async function waitFor(check: () => boolean, run: Running): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`never came; stdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const SEPARATOR = (what: string) =>
  new RegExp(`^── \\d\\d:\\d\\d:\\d\\d · ${what.replaceAll('.', '\\.')} ──$`);
const WATCHING = 'watching workflows/, wfsync.config.yaml for changes (Ctrl-C to stop)\n';

/** A valid definition of its own (not one of the nine examples), optionally with a step type of `type`. */
function orderDelivered(type = 'in_app', identifier = 'order-delivered'): string {
  return `# yaml-language-server: $schema=../schemas/workflow.schema.json
name: order delivered
steps:
  - name: delivered notice
    template:
      type: ${type}
      content: Order {{orderNumber}} was delivered.
triggers:
  - type: event
    identifier: ${identifier}
    variables:
      - { name: orderNumber, type: String }
`;
}

describe('wfsync validate --watch (the built CLI)', () => {
  it('re-validates on save, keeps watching while a file is invalid, and exits 0 on Ctrl-C', async () => {
    const cwd = makeExampleProject();
    const run = start(['validate', '--watch'], cwd);
    await run.next(/^✔ 9 files valid$/);
    await run.stderrHas(WATCHING);

    writeFileSync(join(cwd, 'workflows/order-delivered.yaml'), orderDelivered('in_ap'));
    await run.next(SEPARATOR('workflows/order-delivered.yaml'));
    await run.next(
      /^workflows\/order-delivered\.yaml:6:13 error .* \(got "in_ap"; did you mean "in_app"\?\) \[schema-enum\]$/,
    );
    await run.next(/^✖ 1 problem \(1 error, 0 warnings\) in 1 of 10 files$/);
    expect(run.child.exitCode).toBeNull();

    writeFileSync(join(cwd, 'workflows/order-delivered.yaml'), orderDelivered());
    await run.next(SEPARATOR('workflows/order-delivered.yaml'));
    await run.next(/^✔ 10 files valid$/);

    const { status, signal } = await run.stop('SIGINT');
    expect({ status, signal }).toEqual({ status: 0, signal: null });
    // The whole session, in order: nothing cleared, one separator per run.
    expect(
      run
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('── ')),
    ).toHaveLength(2);
    expect(run.stdout().startsWith('✔ 9 files valid\n\n── ')).toBe(true);
    expect(run.stderr()).toBe(WATCHING);
  });

  it('docs/guides/local-dry-run.md: the session the page shows (the README test skips it: it runs until Ctrl-C)', async () => {
    const page = 'docs/guides/local-dry-run.md';
    const blocks = extractBlocks(readFileSync(join(ROOT, page), 'utf8'), page).filter((block) =>
      block.body.startsWith('$ wfsync validate --watch\n'),
    );
    expect(blocks).toHaveLength(1);
    const [step, ...more] = parseTranscript(blocks[0]!.body);
    expect(more).toEqual([]);
    const cwd = makeExampleProject();
    const run = start(step!.command.text.split(' ').slice(1), cwd);
    await run.next(/^✔ 9 files valid$/);
    await run.stderrHas(WATCHING);
    // The page's edits: the tour's typo in order-shipped.yaml, saved, then fixed and saved again.
    const file = join(cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('type: in_app', 'type: in_ap'));
    await run.next(/^✖ 1 problem \(1 error, 0 warnings\) in 1 of 9 files$/);
    writeFileSync(file, text);
    await run.next(/^✔ 9 files valid$/);
    const { status } = await run.stop('SIGINT');
    expect(status).toBe(0);
    // Every line the page shows, in order (the separator's time aside: readme-blocks.ts normalizeLine).
    expect(findMissingLine(step!.expected, run.stdout(), run.stderr())).toBe(undefined);
  });

  it('sees new and deleted subdirectories, deleted files and config edits; SIGTERM also ends it with 0', async () => {
    const cwd = makeExampleProject();
    const run = start(['validate', '--watch'], cwd);
    await run.stderrHas(WATCHING);

    // Created together with its file: the file may be written before the directory has a watcher.
    mkdirSync(join(cwd, 'workflows/billing/paid'), { recursive: true });
    writeFileSync(join(cwd, 'workflows/billing/paid/broken.yaml'), 'name: [unclosed\n');
    await run.next(/^workflows\/billing\/paid\/broken\.yaml:\d+:\d+ error .*\[yaml-syntax\]$/);
    await run.next(/^✖ 1 problem \(1 error, 0 warnings\) in 1 of 10 files$/);

    // Files in a directory found by the rescan are watched too.
    writeFileSync(join(cwd, 'workflows/billing/paid/broken.yaml'), orderDelivered());
    await run.next(SEPARATOR('workflows/billing/paid/broken.yaml'));
    await run.next(/^✔ 10 files valid$/);

    rmSync(join(cwd, 'workflows/billing'), { recursive: true });
    await run.next(/^✔ 9 files valid$/);

    // An identifier that is not the slug of the name is an error by this project's config…
    writeFileSync(join(cwd, 'workflows/order-delivered.yaml'), orderDelivered('in_app', 'delivered'));
    await run.next(/^workflows\/order-delivered\.yaml:\d+:\d+ error .*\[identifier-name-mismatch\]$/);
    // …and editing the config re-validates with the new severity.
    const config = join(cwd, 'wfsync.config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        'identifier-name-mismatch: error',
        'identifier-name-mismatch: off',
      ),
    );
    await run.next(SEPARATOR('wfsync.config.yaml'));
    await run.next(/^✔ 10 files valid$/);

    rmSync(join(cwd, 'workflows/order-delivered.yaml'));
    await run.next(SEPARATOR('workflows/order-delivered.yaml'));
    await run.next(/^✔ 9 files valid$/);

    expect(await run.stop('SIGTERM')).toEqual({ status: 0, signal: null });
  });

  it('an edit to a file a definition includes re-validates; editor backup files do not count', async () => {
    const cwd = makeExampleProject();
    const definition = join(cwd, 'workflows/order-shipped.yaml');
    const notice = join(cwd, 'workflows/order-shipped.notice.txt');
    writeFileSync(
      definition,
      readFileSync(definition, 'utf8').replace(
        'content: Order {{orderNumber}} has shipped with {{carrier}}.',
        'content: { file: ./order-shipped.notice.txt }',
      ),
    );
    writeFileSync(notice, 'Order {{orderNumber}} has shipped with {{carrier}}.\n');
    const run = start(['validate', '--watch'], cwd);
    await run.next(/^✔ 9 files valid$/);
    await run.stderrHas(WATCHING);

    writeFileSync(`${definition}~`, 'a backup an editor left\n');
    writeFileSync(notice, 'Order {{orderNumber}} has shipped with {{courier}}.\n');
    await run.next(SEPARATOR('workflows/order-shipped.notice.txt'));
    await run.next(
      /^workflows\/order-shipped\.notice\.txt:1:\d+ warning `courier` is used in steps\[1\]\.template\.content/,
    );
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('a config file that appears, goes, comes back by rename or moves workflowsDir is followed', async () => {
    // No config: the defaults (workflows/, render-empty a warning). Discovery looks from cwd upwards.
    const cwd = makeProject({
      'workflows/hello.yaml': validNumbered(1).replace(
        'Order {{orderId}} shipped',
        'Hi {{subscriber.nickname}}: {{orderId}}',
      ),
      'services/bye.yaml': validNumbered(2),
    });
    const config = join(cwd, 'wfsync.config.yaml');
    const run = start(['validate', '--watch'], cwd);
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ warning .*\[render-empty\]$/);
    await run.stderrHas('watching workflows/ for changes (Ctrl-C to stop)\n');

    // Created (as `wfsync init` in another terminal would): its rules apply, and it is watched from then on.
    writeFileSync(config, 'rules:\n  render-empty: off\n');
    await run.next(SEPARATOR('wfsync.config.yaml'));
    await run.next(/^✔ 1 file valid$/);
    await run.stderrHas('watching workflows/, wfsync.config.yaml for changes (Ctrl-C to stop)\n');

    // Deleted: the defaults again.
    rmSync(config);
    await run.next(SEPARATOR('wfsync.config.yaml'));
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ warning .*\[render-empty\]$/);
    await waitFor(() => run.stderr().split('watching workflows/ for changes').length === 3, run);

    // Saved by rename (a temp file moved over the name), moving workflowsDir: the new folder is listed and watched.
    writeFileSync(join(cwd, '.wfsync.config.yaml.new'), 'workflowsDir: services\n');
    renameSync(join(cwd, '.wfsync.config.yaml.new'), config);
    await run.next(SEPARATOR('wfsync.config.yaml'));
    await run.next(/^✔ 1 file valid$/);
    await run.stderrHas('watching services/, wfsync.config.yaml for changes (Ctrl-C to stop)\n');
    writeFileSync(join(cwd, 'services/bye.yaml'), 'name: [unclosed\n');
    await run.next(SEPARATOR('services/bye.yaml'));
    await run.next(/^services\/bye\.yaml:\d+:\d+ error .*\[yaml-syntax\]$/);

    // Deleted and created again in another save by rename: still followed.
    rmSync(config);
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ warning .*\[render-empty\]$/);
    await waitFor(() => run.stderr().split('watching workflows/ for changes').length === 4, run);
    writeFileSync(join(cwd, 'wfsync.config.yaml~'), 'rules:\n  render-empty: error\n');
    renameSync(join(cwd, 'wfsync.config.yaml~'), config);
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ error .*\[render-empty\]$/);
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('nothing to read at start (no workflows/, no config): said, and a config created then is followed', async () => {
    const cwd = makeProject({ 'services/bye.yaml': validNumbered(2) });
    const run = start(['validate', '--watch'], cwd);
    await run.stderrHas(
      'wfsync: no workflow definitions: the workflows directory workflows/ does not exist (create it, set ' +
        'workflowsDir in wfsync.config.yaml, or pass paths)\n',
    );
    await run.stderrHas('watching workflows for changes (Ctrl-C to stop)\n');
    writeFileSync(join(cwd, 'wfsync.config.yaml'), 'workflowsDir: services\n');
    await run.next(SEPARATOR('wfsync.config.yaml'));
    await run.next(/^✔ 1 file valid$/);
    await run.stderrHas('watching services/, wfsync.config.yaml for changes (Ctrl-C to stop)\n');
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('a config created in a folder above cwd, where discovery finds it, is followed too', async () => {
    const root = makeProject({
      'app/workflows/hello.yaml': validNumbered(1).replace(
        'Order {{orderId}} shipped',
        'Hi {{subscriber.nickname}}: {{orderId}}',
      ),
    });
    const run = start(['validate', '--watch'], join(root, 'app'));
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ warning .*\[render-empty\]$/);
    await run.stderrHas('watching workflows/ for changes (Ctrl-C to stop)\n');
    // Relative to the config's folder: app/workflows seen from above.
    writeFileSync(
      join(root, 'wfsync.config.yaml'),
      'workflowsDir: app/workflows\nrules:\n  render-empty: error\n',
    );
    await run.next(SEPARATOR('../wfsync.config.yaml'));
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ error .*\[render-empty\]$/);
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('-c <file>: that file is followed through deletion and re-creation by rename', async () => {
    const cwd = makeProject({
      'conf/wfsync.yaml': 'workflowsDir: ../workflows\nrules:\n  render-empty: off\n',
      'workflows/hello.yaml': validNumbered(1).replace(
        'Order {{orderId}} shipped',
        'Hi {{subscriber.nickname}}: {{orderId}}',
      ),
    });
    const config = join(cwd, 'conf/wfsync.yaml');
    const run = start(['validate', '--watch', '-c', 'conf/wfsync.yaml'], cwd);
    await run.next(/^✔ 1 file valid$/);
    await run.stderrHas('watching workflows/, conf/wfsync.yaml for changes (Ctrl-C to stop)\n');
    rmSync(config);
    await run.next(SEPARATOR('conf/wfsync.yaml'));
    await run.stderrHas('conf/wfsync.yaml');
    // A default-named config beside cwd is not the one -c names: it changes nothing.
    writeFileSync(join(cwd, 'wfsync.config.yaml'), 'rules:\n  render-empty: error\n');
    writeFileSync(
      join(cwd, 'conf/.wfsync.yaml.tmp'),
      'workflowsDir: ../workflows\nrules:\n  render-empty: warning\n',
    );
    renameSync(join(cwd, 'conf/.wfsync.yaml.tmp'), config);
    await run.next(SEPARATOR('conf/wfsync.yaml'));
    await run.next(/^workflows\/hello\.yaml:\d+:\d+ warning .*\[render-empty\]$/);
    expect(run.stdout()).not.toMatch(/· wfsync\.config\.yaml ──/);
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('a workflows directory deleted while watching: the error is reported, and validation resumes when it is back', async () => {
    const cwd = makeExampleProject();
    const run = start(['validate', '--watch'], cwd);
    await run.stderrHas(WATCHING);
    const examples = readFileSync(join(cwd, 'workflows/order-shipped.yaml'));
    rmSync(join(cwd, 'workflows'), { recursive: true });
    await run.stderrHas('wfsync: no workflow definitions: the workflows directory workflows/ does not exist');
    expect(run.child.exitCode).toBeNull();

    mkdirSync(join(cwd, 'workflows'));
    writeFileSync(join(cwd, 'workflows/order-shipped.yaml'), examples);
    await run.next(/^✔ 1 file valid$/);
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
  });

  it('given paths: only those are watched; with --output the file is rewritten and a summary line printed', async () => {
    const cwd = makeExampleProject();
    const run = start(
      ['validate', '--watch', 'workflows/order-shipped.yaml', '-o', 'report.json', '-f', 'json'],
      cwd,
    );
    await run.next(/^wrote report\.json: 0 errors, 0 warnings in 1 file$/);
    await run.stderrHas(
      'watching workflows/order-shipped.yaml, wfsync.config.yaml for changes (Ctrl-C to stop)\n',
    );

    // Another file in the same directory is not among the paths: no run (the next one is for the edit below).
    writeFileSync(join(cwd, 'workflows/order-delivered.yaml'), orderDelivered('in_ap'));
    const file = join(cwd, 'workflows/order-shipped.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('type: in_app', 'type: in_ap'));
    await run.next(SEPARATOR('workflows/order-shipped.yaml'));
    await run.next(/^wrote report\.json: 1 error, 0 warnings in 1 file$/);
    const report = JSON.parse(readFileSync(join(cwd, 'report.json'), 'utf8'));
    expect(report.diagnostics.map((d: { file: string; code: string }) => [d.file, d.code])).toEqual([
      ['workflows/order-shipped.yaml', 'schema-enum'],
    ]);
    expect(await run.stop('SIGINT')).toEqual({ status: 0, signal: null });
    expect(run.stdout()).not.toContain('order-delivered');
  });

  it('a path that does not exist ends it at once with the usage error (64), watching nothing', async () => {
    const cwd = makeExampleProject();
    const result = await runCli(['validate', '--watch', 'workflows/nope.yaml'], { cwd });
    expect(result.stderr).toBe('wfsync: no such file or directory: workflows/nope.yaml\n');
    expect(result.status).toBe(64);
  });
});
