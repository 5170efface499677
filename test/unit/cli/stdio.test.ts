import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectWriter } from '../../../src/cli/stdio.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfsync-stdio-'));
  // stdio.ts and write-output.ts import only node:*: compiled on their own, for child processes to use.
  for (const [from, to] of [
    ['../../../src/cli/stdio.ts', 'stdio.mjs'],
    ['../../../src/report/write-output.ts', 'write-output.mjs'],
  ] as const) {
    const source = await readFile(new URL(from, import.meta.url), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    await writeFile(join(dir, to), outputText);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A child process running `lines` (with openStdio, DirectWriter and writeOutput imported), stdout as given. */
async function child(lines: string[], stdout: 'pipe' | number) {
  const script = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  await writeFile(
    script,
    [
      "import { openStdio, DirectWriter } from './stdio.mjs';",
      "import { writeOutput } from './write-output.mjs';",
      ...lines,
    ].join('\n'),
  );
  const run = spawn(process.execPath, [script], { stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  run.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { run, stderr: () => stderr };
}

const BIG = (n: number) =>
  `const big = Array.from({ length: ${n} }, (_, i) => 'line ' + i + '\\n').join('');`;

describe('openStdio and DirectWriter', () => {
  it('writes to a pipe directly, whole and in order, without loading net (the socket Node makes for stdout)', async () => {
    const { run, stderr } = await child(
      [
        BIG(400_000),
        "const out = openStdio('stdout');",
        'await writeOutput(out, big);',
        "await writeOutput(out, 'end\\n');",
        'const loaded = process.moduleLoadList.filter((m) => /^NativeModule (net|tty)$/.test(m));',
        "process.stderr.write(out.constructor.name + ' ' + loaded.join(','));",
      ],
      'pipe',
    );
    const chunks: Buffer[] = [];
    run.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [code] = await once(run, 'close');
    expect(code).toBe(0);
    const expected = `${Array.from({ length: 400_000 }, (_, i) => `line ${i}\n`).join('')}end\n`;
    expect(Buffer.concat(chunks).toString()).toBe(expected);
    // Listed before process.stderr (Node's stream) was made for the line saying so. (The stream modules come with
    // this ES module's `import` of node:fs, which reads every export; the CLI is CommonJS.)
    expect(stderr()).toBe('DirectWriter ');
  });

  it('writes to a file directly', async () => {
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    const { run, stderr } = await child(
      ["const out = openStdio('stdout');", "await writeOutput(out, 'one\\n');", "out.write('two\\n');"],
      fd,
    );
    closeSync(fd);
    const [code] = await once(run, 'close');
    expect(code, stderr()).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });

  it("stops quietly when the reader of the pipe goes away (EPIPE), as Node's stream does", async () => {
    const { run, stderr } = await child(
      [
        BIG(2_000_000),
        "const out = openStdio('stdout');",
        'await writeOutput(out, big);',
        'await writeOutput(out, big);',
        "out.write('no callback\\n');",
        "process.stderr.write(out.constructor.name + ' done');",
      ],
      'pipe',
    );
    await once(run.stdout!, 'data');
    run.stdout?.destroy();
    const [code] = await once(run, 'close');
    expect(stderr()).toBe('DirectWriter done');
    expect(code).toBe(0);
  });

  it("hands the rest to Node's stream when a non-blocking pipe is full (EAGAIN), keeping the order", async () => {
    // Node's own stdout, once made, sets the pipe non-blocking (libuv): the direct writes then meet a full pipe.
    const { run, stderr } = await child(
      [
        BIG(400_000),
        'process.stdout;',
        'const out = new DirectWriter(1, () => process.stdout);',
        'await writeOutput(out, big);',
        "await writeOutput(out, 'end\\n');",
        'process.stderr.write(String(out.fallback === process.stdout));',
      ],
      'pipe',
    );
    const chunks: Buffer[] = [];
    // A slow reader: the pipe fills while the child writes.
    run.stdout?.pause();
    setTimeout(() => {
      run.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
      run.stdout?.resume();
    }, 200);
    const [code] = await once(run, 'close');
    expect(code, stderr()).toBe(0);
    expect(stderr()).toBe('true');
    const expected = `${Array.from({ length: 400_000 }, (_, i) => `line ${i}\n`).join('')}end\n`;
    expect(Buffer.concat(chunks).toString()).toBe(expected);
  });

  it("hands every later write to Node's stream when a command will run until Ctrl-C", async () => {
    const { run, stderr } = await child(
      [
        "const out = openStdio('stdout');",
        "await writeOutput(out, 'direct\\n');",
        'out.handOver();',
        "await writeOutput(out, 'through Node\\n');",
        "const loaded = process.moduleLoadList.includes('NativeModule net');",
        'process.stderr.write(String(out.fallback === process.stdout && loaded));',
      ],
      'pipe',
    );
    const chunks: Buffer[] = [];
    run.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [code] = await once(run, 'close');
    expect(code, stderr()).toBe(0);
    expect(stderr()).toBe('true');
    expect(Buffer.concat(chunks).toString()).toBe('direct\nthrough Node\n');
  });

  it('writes what a short write left, until all is written', async () => {
    const got: number[] = [];
    const writer = new DirectWriter(
      9,
      () => {
        throw new Error('no fallback expected');
      },
      (_fd, data) => {
        const n = Math.min(3, data.length);
        got.push(...data.subarray(0, n));
        return n;
      },
    );
    await new Promise((resolve) => writer.write('héllo wörld', resolve));
    expect(Buffer.from(got).toString()).toBe('héllo wörld');
  });
});
