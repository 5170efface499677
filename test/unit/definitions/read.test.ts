import { execFileSync } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { readDefinitions } from '../../helpers/read-definitions.js';
import { useTempDir, where } from './helpers.js';

const tempDir = useTempDir();

async function write(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

const VALID = 'name: Welcome\nsteps:\n  - name: In-app\n    template: {type: in_app, content: Hi}\n';

describe('readDefinitions', () => {
  it('reads every file and reports every broken one in the same run', async () => {
    const cwd = await tempDir();
    await write(cwd, {
      'workflows/welcome.yaml': VALID,
      'workflows/orders/shipped.yml': 'name: Shipped\nsteps: []\n',
      'workflows/broken/tabs.yaml': 'name: Tabs\nsteps:\n\t- x\n',
      'workflows/broken/list.yaml': '- name: a\n',
      'workflows/broken/latin1.yaml': new Uint8Array([0x6e, 0x3a, 0x20, 0xe9, 0x0a]),
    });
    const result = await readDefinitions([], { cwd, defaultDir: 'workflows' });
    expect(result.files).toEqual([
      'workflows/broken/latin1.yaml',
      'workflows/broken/list.yaml',
      'workflows/broken/tabs.yaml',
      'workflows/orders/shipped.yml',
      'workflows/welcome.yaml',
    ]);
    expect(result.definitions.map((d) => d.file)).toEqual([
      'workflows/orders/shipped.yml',
      'workflows/welcome.yaml',
    ]);
    expect(result.diagnostics.map((d) => `${d.file} ${d.code}@${d.line}:${d.column}`)).toEqual([
      'workflows/broken/latin1.yaml file-encoding@1:4',
      'workflows/broken/list.yaml root-not-mapping@1:1',
      'workflows/broken/tabs.yaml yaml-tab-indent@3:1',
    ]);
    // Every file that decoded keeps its text, parsed or not, so a syntax error gets a code frame too.
    expect([...result.sources.keys()]).toEqual([
      'workflows/broken/list.yaml',
      'workflows/broken/tabs.yaml',
      'workflows/orders/shipped.yml',
      'workflows/welcome.yaml',
    ]);
    expect(result.sources.get('workflows/broken/tabs.yaml')).toBe('name: Tabs\nsteps:\n\t- x\n');
    const welcome = result.definitions[1]!;
    expect(welcome.value).toEqual({
      name: 'Welcome',
      steps: [{ name: 'In-app', template: { type: 'in_app', content: 'Hi' } }],
    });
    expect(welcome.text).toBe(VALID);
    expect(welcome.locate('/steps/0/template/type')).toEqual({
      line: 4,
      column: 22,
      endLine: 4,
      endColumn: 28,
    });
  });

  it('rejects a huge file from its size alone, and honours custom limits', async () => {
    const cwd = await tempDir();
    const big = new Uint8Array(3 * 1024 * 1024).fill(0x23); // "###…": a comment, were it ever parsed
    await write(cwd, { 'w/big.yaml': big, 'w/small.yaml': VALID });
    const result = await readDefinitions([], { cwd, defaultDir: 'w' });
    expect(result.diagnostics).toMatchObject([
      {
        file: 'w/big.yaml',
        code: 'file-too-large',
        line: 1,
        column: 1,
        message: 'file is 3 MiB (3145728 bytes), over the 1 MiB limit',
      },
    ]);
    const strict = await readDefinitions([], { cwd, defaultDir: 'w', limits: { maxBytes: 20 } });
    expect(where(strict.diagnostics)).toEqual(['file-too-large@1:1', 'file-too-large@1:1']);
    expect(strict.diagnostics[1]?.message).toBe(
      `file is ${VALID.length} B (${VALID.length} bytes), over the 20 B limit`,
    );
  });

  it('turns files that cannot be read into file-unreadable diagnostics, not crashes', async () => {
    const cwd = await tempDir();
    await write(cwd, { 'w/ok.yaml': VALID });
    await symlink(path.join(cwd, 'w/gone.txt'), path.join(cwd, 'w/dangling.yaml'));
    await symlink(path.join(cwd, 'w/loop.yaml'), path.join(cwd, 'w/loop.yaml'));
    execFileSync('mkfifo', [path.join(cwd, 'fifo')]);
    await symlink(path.join(cwd, 'fifo'), path.join(cwd, 'w/pipe.yaml'));
    const result = await readDefinitions([], { cwd, defaultDir: 'w' });
    expect(result.files).toEqual(['w/dangling.yaml', 'w/loop.yaml', 'w/ok.yaml', 'w/pipe.yaml']);
    expect(result.definitions.map((d) => d.file)).toEqual(['w/ok.yaml']);
    expect(result.diagnostics.map((d) => [d.file, d.code, d.line, d.column, d.message])).toEqual([
      ['w/dangling.yaml', 'file-unreadable', 1, 1, 'cannot read file: no such file or directory (ENOENT)'],
      ['w/loop.yaml', 'file-unreadable', 1, 1, 'cannot read file: too many levels of symbolic links (ELOOP)'],
      ['w/pipe.yaml', 'file-unreadable', 1, 1, 'cannot read file: not a regular file'],
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('reports a file without read permission', async () => {
    const cwd = await tempDir();
    await write(cwd, { 'w/locked.yaml': VALID });
    await chmod(path.join(cwd, 'w/locked.yaml'), 0o000);
    const result = await readDefinitions([], { cwd, defaultDir: 'w' });
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['file-unreadable', 'cannot read file: permission denied (EACCES)'],
    ]);
  });

  it('still throws a UsageError for a path that does not exist', async () => {
    const cwd = await tempDir();
    await expect(readDefinitions(['missing.yaml'], { cwd, defaultDir: '.' })).rejects.toBeInstanceOf(
      UsageError,
    );
  });

  it('reads an empty directory as nothing at all', async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, 'w'));
    expect(await readDefinitions([], { cwd, defaultDir: 'w' })).toEqual({
      definitions: [],
      diagnostics: [],
      files: [],
      sources: new Map(),
    });
  });
});
