/**
 * The file-system boundary (src/fs-boundary.ts) on real temp directories with real symbolic links (and a real FIFO
 * where mkfifo exists): which root a path belongs to, what a read may open, what a write may go through.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile } from '../../src/definitions/read-capped.js';
import {
  assertNoLinks,
  BoundaryError,
  createFsBoundary,
  findProjectRoot,
  isInside,
  isWithin,
  prepareWrite,
} from '../../src/fs-boundary.js';
import { writeFileAtomically } from '../../src/state/atomic-write.js';
import { useTempProjects, writeFiles } from '../helpers/temp-project.js';

/** A fresh real directory (links resolved, so that roots compare as the boundary sees them). */
const tempDir = useTempProjects('wfsync-boundary-');

const SECRET = 'CANARY-7f3a-do-not-print';

/** A project (config at its root) and, beside it, a directory outside it holding a secret. */
function projectAndOutside(): { project: string; outside: string } {
  const top = tempDir();
  const project = path.join(top, 'project');
  const outside = path.join(top, 'outside');
  writeFiles(project, {
    'wfsync.config.yaml': 'workflowsDir: workflows\n',
    'workflows/ok.yaml': 'name: ok\n',
  });
  writeFiles(outside, { 'secret.yaml': `token: ${SECRET}\n`, 'dir/inner.yaml': `token: ${SECRET}\n` });
  return { project, outside };
}

function mkfifo(file: string): boolean {
  try {
    execFileSync('mkfifo', [file]);
    return true;
  } catch {
    return false;
  }
}

describe('findProjectRoot', () => {
  it('is the nearest directory with a config (which wins over .git at one level), else .git, else the start', () => {
    const top = tempDir({ '.git/HEAD': '', 'a/wfsync.config.yml': '', 'a/b/c/.keep': '', 'd/e/.keep': '' });
    mkdirSync(path.join(top, 'a/.git'));
    expect(findProjectRoot(path.join(top, 'a/b/c'))).toMatchObject({
      dir: path.join(top, 'a'),
      kind: 'config',
    });
    expect(findProjectRoot(path.join(top, 'd/e'))).toMatchObject({ dir: top, kind: 'git' });
    const bare = tempDir();
    expect(findProjectRoot(bare)).toEqual({ dir: bare, real: bare, kind: 'start' });
  });

  it('isInside is strict and never matches a longer sibling name; isWithin includes the directory', () => {
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a/b')).toBe(false);
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isInside('/', '/x')).toBe(true);
  });
});

describe('openForRead and readRegularFile', () => {
  it('opens a plain file and a link that stays inside the project', () => {
    const { project } = projectAndOutside();
    symlinkSync(path.join(project, 'workflows/ok.yaml'), path.join(project, 'workflows/alias.yaml'));
    const boundary = createFsBoundary(project);
    for (const name of ['ok.yaml', 'alias.yaml']) {
      const read = readRegularFile(path.join(project, 'workflows', name), 1024, boundary);
      expect(read).toEqual({ bytes: new TextEncoder().encode('name: ok\n') });
    }
  });

  it('refuses, unopened, a link leading outside: to a file, through a linked folder, or to /proc/self/environ', () => {
    const { project, outside } = projectAndOutside();
    const w = path.join(project, 'workflows');
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(w, 'secret.yaml'));
    symlinkSync(path.join(outside, 'dir'), path.join(w, 'linked'));
    symlinkSync('/proc/self/environ', path.join(w, 'env.yaml'));
    const boundary = createFsBoundary(project);
    for (const file of ['secret.yaml', 'linked/inner.yaml', 'env.yaml']) {
      const read = readRegularFile(path.join(w, file), 1024, boundary);
      expect(read, file).toEqual({ outside: expect.objectContaining({ dir: project, kind: 'config' }) });
    }
    expect(boundary.directoryOutside(path.join(w, 'linked'))).toMatchObject({ dir: project });
    expect(boundary.directoryOutside(w)).toBeUndefined();
  });

  it('a whole workflows folder that is a link out is outside, even when the outside holds a .git of its own', () => {
    const { project, outside } = projectAndOutside();
    mkdirSync(path.join(outside, '.git'));
    rmSync(path.join(project, 'workflows'), { recursive: true });
    symlinkSync(outside, path.join(project, 'workflows'));
    const boundary = createFsBoundary(project);
    expect(boundary.directoryOutside(path.join(project, 'workflows'))).toMatchObject({ dir: project });
    expect(readRegularFile(path.join(project, 'workflows/secret.yaml'), 1024, boundary)).toHaveProperty(
      'outside',
    );
  });

  it('says why it cannot open a dangling link or a link loop', () => {
    const { project } = projectAndOutside();
    const w = path.join(project, 'workflows');
    symlinkSync(path.join(w, 'gone.yaml'), path.join(w, 'dangling.yaml'));
    symlinkSync(path.join(w, 'loop.yaml'), path.join(w, 'loop.yaml'));
    const boundary = createFsBoundary(project);
    expect(readRegularFile(path.join(w, 'dangling.yaml'), 1024, boundary)).toMatchObject({
      error: { code: 'ENOENT' },
    });
    expect(readRegularFile(path.join(w, 'loop.yaml'), 1024, boundary)).toMatchObject({
      error: { code: 'ELOOP' },
    });
  });

  it('a path outside the working directory has the project found from its own directory', () => {
    const { project, outside } = projectAndOutside();
    const elsewhere = tempDir();
    const boundary = createFsBoundary(elsewhere);
    expect(boundary.rootFor(path.join(project, 'workflows/ok.yaml'))).toMatchObject({
      dir: project,
      kind: 'config',
    });
    expect(boundary.rootFor(path.join(elsewhere, 'x/y.yaml'))).toMatchObject({
      dir: elsewhere,
      kind: 'start',
    });
    // From the project, the outside folder is another project: a link from it back out is refused there too.
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(project, 'workflows/secret.yaml'));
    expect(readRegularFile(path.join(project, 'workflows/secret.yaml'), 1024, boundary)).toHaveProperty(
      'outside',
    );
  });

  const fifoReason = 'mkfifo is not available here';
  it('refuses a FIFO as not a regular file, without blocking (skipped where mkfifo is missing)', (context) => {
    const { project } = projectAndOutside();
    const fifo = path.join(project, 'workflows/pipe.yaml');
    if (!mkfifo(fifo)) {
      console.info(`skipped: ${fifoReason}`);
      context.skip();
    }
    const boundary = createFsBoundary(project);
    expect(readRegularFile(fifo, 1024, boundary)).toEqual({ problem: 'not-regular' });
    const opened = boundary.openForRead(fifo);
    expect(opened).toHaveProperty('fd');
    if ('fd' in opened) closeSync(opened.fd);
  });
});

describe('prepareWrite, assertNoLinks and the writer', () => {
  it('creates missing folders without following links and accepts a plain path', () => {
    const { project } = projectAndOutside();
    const boundary = createFsBoundary(project);
    prepareWrite(path.join(project, '.wfsync/state/prod.json'), boundary);
    expect(lstatSync(path.join(project, '.wfsync/state')).isDirectory()).toBe(true);
  });

  it('refuses a link as a folder on the way or as the file, naming it, and writes nothing outside', async () => {
    const { project, outside } = projectAndOutside();
    const boundary = createFsBoundary(project);
    symlinkSync(outside, path.join(project, '.wfsync'));
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(project, '.gitignore'));
    expect(() => prepareWrite(path.join(project, '.wfsync/state/prod.json'), boundary)).toThrow(
      new BoundaryError(
        'refusing to write through .wfsync: it is a symbolic link (a folder on the way to it), and wfsync never ' +
          'writes through one, so that a repository cannot make it change files elsewhere; replace the link with ' +
          'a regular file or folder',
      ),
    );
    expect(() => assertNoLinks(path.join(project, '.gitignore'), boundary)).toThrow(
      /^refusing to write through \.gitignore: it is a symbolic link \(the file itself\)/,
    );
    await expect(writeFileAtomically(path.join(project, '.gitignore'), 'x\n', { boundary })).rejects.toThrow(
      BoundaryError,
    );
    await expect(
      writeFileAtomically(path.join(project, '.wfsync/cache/validate.json'), '{}', { boundary }),
    ).rejects.toThrow(BoundaryError);
    expect(readFileSync(path.join(outside, 'secret.yaml'), 'utf8')).toBe(`token: ${SECRET}\n`);
    expect(readdirSync(outside).sort()).toEqual(['dir', 'secret.yaml']);
    expect(readdirSync(project).sort()).toEqual(['.gitignore', '.wfsync', 'wfsync.config.yaml', 'workflows']);
  });

  it('a dangling link is refused too (it would create the file it names)', async () => {
    const { project, outside } = projectAndOutside();
    const boundary = createFsBoundary(project);
    symlinkSync(path.join(outside, 'new.txt'), path.join(project, 'workflows/new.yaml'));
    for (const exclusive of [false, true]) {
      await expect(
        writeFileAtomically(path.join(project, 'workflows/new.yaml'), 'x', { boundary, exclusive }),
      ).rejects.toThrow(/^refusing to write through workflows\/new\.yaml/);
    }
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('a link planted between the checks and the rename is still refused (checked again before renaming)', async () => {
    const { project, outside } = projectAndOutside();
    const boundary = createFsBoundary(project);
    const file = path.join(project, 'workflows/ok.yaml');
    const fs = await import('node:fs/promises');
    const planting = {
      open: async (at: string, flags: string | number, mode?: number) => {
        const handle = await fs.open(at, flags, mode);
        // After prepareWrite checked the path, before the rename: the file becomes a link to the secret.
        rmSync(file);
        symlinkSync(path.join(outside, 'secret.yaml'), file);
        return handle;
      },
      rename: fs.rename,
      rm: fs.rm,
    };
    await expect(writeFileAtomically(file, 'pwned', { boundary, fs: planting })).rejects.toThrow(
      BoundaryError,
    );
    expect(readFileSync(path.join(outside, 'secret.yaml'), 'utf8')).toBe(`token: ${SECRET}\n`);
    expect(readdirSync(path.join(project, 'workflows'))).toEqual(['ok.yaml']);
  });

  it('exclusive: creates a new file, never replaces one that exists by then', async () => {
    const { project } = projectAndOutside();
    const boundary = createFsBoundary(project);
    const file = path.join(project, 'workflows/new.yaml');
    await writeFileAtomically(file, 'one', { boundary, exclusive: true });
    await expect(writeFileAtomically(file, 'two', { boundary, exclusive: true })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(readFileSync(file, 'utf8')).toBe('one');
    expect(readdirSync(path.join(project, 'workflows')).sort()).toEqual(['new.yaml', 'ok.yaml']);
  });
});
