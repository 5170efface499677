import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileText, writeOutput } from '../../../src/report/write-output.js';

const BIG = 'x'.repeat(8 * 1024 * 1024);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfsync-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeOutput', () => {
  it('resolves quietly when the reader of a pipe has gone (EPIPE), now and on later writes', async () => {
    // The child reads one chunk and exits, closing the pipe while we are still writing.
    const child = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const seen: unknown[] = [];
    child.stdin.on('error', (error: NodeJS.ErrnoException) => seen.push(error.code));
    await expect(writeOutput(child.stdin, BIG)).resolves.toBeUndefined();
    await once(child, 'exit');
    await expect(writeOutput(child.stdin, 'more\n')).resolves.toBeUndefined();
    expect(seen).toContain('EPIPE'); // the pipe really broke under the write
  });

  it('keeps a real process alive when its stdout reader closes early (`wfsync … | head -1`)', async () => {
    // Compile write-output.ts on its own (it imports only node:*) and use it from a child process.
    const source = await readFile(new URL('../../../src/report/write-output.ts', import.meta.url), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    await writeFile(join(dir, 'write-output.mjs'), outputText);
    const script = join(dir, 'child.mjs');
    await writeFile(
      script,
      [
        "import { writeOutput } from './write-output.mjs';",
        `const big = 'line\\n'.repeat(${2 * 1024 * 1024});`,
        'await writeOutput(process.stdout, big);',
        'await writeOutput(process.stdout, big);',
        "process.stderr.write('done\\n');",
      ].join('\n'),
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect(stderr).toBe('done\n');
    expect(code).toBe(0);
  });

  it('waits until a slow stream has taken all the text', async () => {
    const received: Buffer[] = [];
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        setImmediate(() => {
          received.push(chunk);
          callback();
        });
      },
    });
    await writeOutput(slow, 'a'.repeat(100_000));
    await writeOutput(slow, 'b');
    expect(Buffer.concat(received).toString()).toBe(`${'a'.repeat(100_000)}b`);
  });

  it('does nothing for a destroyed stream or empty text', async () => {
    const destroyed = new PassThrough();
    destroyed.destroy();
    await expect(writeOutput(destroyed, 'text')).resolves.toBeUndefined();
    const untouched = new Writable({
      write() {
        throw new Error('must not be called');
      },
    });
    await expect(writeOutput(untouched, '')).resolves.toBeUndefined();
  });

  it('rejects with any other stream error', async () => {
    const full = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      },
    });
    await expect(writeOutput(full, 'text')).rejects.toMatchObject({ code: 'ENOSPC' });
  });
});

describe('appendFileText', () => {
  it('creates the file, then appends to it', async () => {
    const path = join(dir, 'step-summary.md');
    await appendFileText(path, '## one\n');
    await appendFileText(path, 'é two\n');
    expect(await readFile(path, 'utf8')).toBe('## one\né two\n');
  });
});
