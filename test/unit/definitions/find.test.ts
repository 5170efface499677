import { execFileSync } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FindOptions, scanDefinitionFiles } from '../../../src/definitions/find.js';

import { UsageError } from '../../../src/errors.js';
import { useTempDir } from './helpers.js';

/** The files a scan finds. */
async function findDefinitionFiles(paths: readonly string[], options: FindOptions): Promise<string[]> {
  return (await scanDefinitionFiles(paths, options)).files;
}

const tempDir = useTempDir();

/** Creates files (and their folders) under `root`; content is irrelevant to finding. */
async function touch(root: string, ...files: string[]): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), 'name: x\n');
  }
}

describe('findDefinitionFiles', () => {
  it('searches the default directory recursively for .yaml and .yml, sorted, with / separators', async () => {
    const cwd = await tempDir();
    await touch(
      cwd,
      'workflows/b.yaml',
      'workflows/a.yml',
      'workflows/orders/z.YAML',
      'workflows/orders/2024/m.yaml',
    );
    await touch(cwd, 'workflows/readme.md', 'workflows/notes.txt', 'elsewhere.yaml');
    expect(await findDefinitionFiles([], { cwd, defaultDir: 'workflows' })).toEqual([
      'workflows/a.yml',
      'workflows/b.yaml',
      'workflows/orders/2024/m.yaml',
      'workflows/orders/z.YAML',
    ]);
  });

  it('skips node_modules and hidden files and folders', async () => {
    const cwd = await tempDir();
    await touch(
      cwd,
      'w/keep.yaml',
      'w/node_modules/pkg/x.yaml',
      'w/.git/y.yaml',
      'w/.github/workflows/ci.yml',
    );
    await touch(cwd, 'w/.hidden.yaml', 'w/sub/node_modules/z.yaml');
    expect(await findDefinitionFiles(['w'], { cwd, defaultDir: 'unused' })).toEqual(['w/keep.yaml']);
  });

  it('takes an explicit file whatever its extension, and de-duplicates overlapping paths', async () => {
    const cwd = await tempDir();
    await touch(cwd, 'w/a.yaml', 'w/b.yaml', 'notes/flow.txt');
    const found = await findDefinitionFiles(
      ['w', './w/a.yaml', path.join(cwd, 'w/b.yaml'), 'notes/flow.txt'],
      {
        cwd,
        defaultDir: 'unused',
      },
    );
    expect(found).toEqual(['notes/flow.txt', 'w/a.yaml', 'w/b.yaml']);
  });

  it('shows paths outside the working directory relative to it', async () => {
    const root = await tempDir();
    await touch(root, 'shared/x.yaml', 'project/w/y.yaml');
    const cwd = path.join(root, 'project');
    expect(await findDefinitionFiles(['../shared', 'w'], { cwd, defaultDir: 'w' })).toEqual([
      '../shared/x.yaml',
      'w/y.yaml',
    ]);
  });

  it('names nested files the same way whichever directory the search starts from', async () => {
    const root = await tempDir();
    await touch(root, 'project/w/a/b/c.yaml', 'project/w/d.yml', 'other/e.yaml');
    const cwd = path.join(root, 'project');
    const expected = ['../other/e.yaml', 'w/a/b/c.yaml', 'w/d.yml'];
    expect(await findDefinitionFiles(['../other', 'w'], { cwd, defaultDir: 'w' })).toEqual(expected);
    expect(await findDefinitionFiles(['.', '../other'], { cwd, defaultDir: 'w' })).toEqual(expected);
    expect(await findDefinitionFiles([root], { cwd, defaultDir: 'w' })).toEqual(expected);
    expect(await findDefinitionFiles(['w/a/'], { cwd, defaultDir: 'w' })).toEqual(['w/a/b/c.yaml']);
  });

  it('names the files of directories above the working directory, which lies on the way, relative to it', async () => {
    const root = await tempDir();
    await touch(root, 'top.yaml', 'a/mid.yaml', 'a/b/here.yaml', 'a/b/c/below.yaml', 'a/side/s.yaml');
    const cwd = path.join(root, 'a/b');
    const expected = ['../../top.yaml', '../mid.yaml', '../side/s.yaml', 'c/below.yaml', 'here.yaml'];
    expect(await findDefinitionFiles(['../..'], { cwd, defaultDir: 'w' })).toEqual(expected);
    expect(await findDefinitionFiles([root], { cwd, defaultDir: 'w' })).toEqual(expected);
    expect(await findDefinitionFiles(['..'], { cwd, defaultDir: 'w' })).toEqual(expected.slice(1));
  });

  it('returns [] for a directory without definitions', async () => {
    const cwd = await tempDir();
    await touch(cwd, 'w/readme.md');
    expect(await findDefinitionFiles([], { cwd, defaultDir: 'w' })).toEqual([]);
  });

  it('throws a UsageError naming a path that does not exist, default directory included', async () => {
    const cwd = await tempDir();
    await touch(cwd, 'w/a.yaml');
    const missing = findDefinitionFiles(['w', 'nope.yaml'], { cwd, defaultDir: 'w' });
    await expect(missing).rejects.toBeInstanceOf(UsageError);
    await expect(missing).rejects.toThrow('no such file or directory: nope.yaml');
    await expect(findDefinitionFiles([], { cwd, defaultDir: 'workflows' })).rejects.toThrow(
      'no such file or directory: workflows',
    );
    await expect(findDefinitionFiles(['w/a.yaml/x'], { cwd, defaultDir: 'w' })).rejects.toThrow(
      'no such file or directory: w/a.yaml/x',
    );
  });

  it('refuses an explicit path that is neither a file nor a directory', async () => {
    const cwd = await tempDir();
    execFileSync('mkfifo', [path.join(cwd, 'pipe.yaml')]);
    await expect(findDefinitionFiles(['pipe.yaml'], { cwd, defaultDir: '.' })).rejects.toThrow(
      'not a file or directory: pipe.yaml',
    );
    // Inside a searched directory a FIFO is simply not a definition file.
    await touch(cwd, 'a.yaml');
    expect(await findDefinitionFiles(['.'], { cwd, defaultDir: '.' })).toEqual(['a.yaml']);
  });

  it('follows links to files but not links to directories (no loops, no leaving the tree)', async () => {
    const root = await tempDir();
    await touch(root, 'outside/secret.yaml', 'w/real.yaml');
    const w = path.join(root, 'w');
    await symlink(path.join(root, 'outside'), path.join(w, 'linked-dir'));
    await symlink(w, path.join(w, 'loop'));
    await symlink(path.join(root, 'outside/secret.yaml'), path.join(w, 'linked.yaml'));
    await symlink(path.join(root, 'outside/missing.yaml'), path.join(w, 'dangling.yaml'));
    // Dangling links stay in the list so that reading them reports the problem instead of hiding it.
    expect(await findDefinitionFiles([], { cwd: root, defaultDir: 'w' })).toEqual([
      'w/dangling.yaml',
      'w/linked.yaml',
      'w/real.yaml',
    ]);
  });
});

describe('scanDefinitionFiles', () => {
  it.skipIf(process.getuid?.() === 0)(
    'lists a directory it cannot read instead of skipping it silently',
    async () => {
      const cwd = await tempDir();
      await touch(cwd, 'w/ok.yaml', 'w/locked/hidden.yaml');
      await chmod(path.join(cwd, 'w/locked'), 0o000);
      try {
        const scan = await scanDefinitionFiles([], { cwd, defaultDir: 'w' });
        expect(scan.files).toEqual(['w/ok.yaml']);
        expect(scan.unreadable.map((u) => [u.path, u.error.code])).toEqual([['w/locked', 'EACCES']]);
      } finally {
        await chmod(path.join(cwd, 'w/locked'), 0o755);
      }
    },
  );
});
