import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeFsError,
  removeStrayTempFiles,
  STRAY_TEMP_AGE_MS,
  writeFileAtomically,
} from '../../../src/state/atomic-write.js';
import { failingFs, osError, type Step, tempDir } from './helpers.js';

describe('writeFileAtomically', () => {
  it('creates the directory and the file, leaving nothing else behind', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a', 'b', 'state.json');
    await writeFileAtomically(file, 'one\n');
    await writeFileAtomically(file, 'two\n');
    expect(await readFile(file, 'utf8')).toBe('two\n');
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['state.json']);
  });

  it('applies the requested mode to a new file', async () => {
    const file = join(await tempDir(), 'secret.json');
    await writeFileAtomically(file, '{}', { mode: 0o600 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it.each<[Step, string]>([
    ['open', 'EMFILE'],
    ['write', 'ENOSPC'],
    ['sync', 'EIO'],
    ['rename', 'EACCES'],
  ])('leaves the old file intact and no temp file when the %s step fails (%s)', async (step, code) => {
    const dir = await tempDir();
    const file = join(dir, 'state.json');
    await writeFile(file, 'old\n');
    const error = osError(code, step);
    await expect(writeFileAtomically(file, 'new content\n', { fs: failingFs(step, error) })).rejects.toBe(
      error,
    );
    expect(await readFile(file, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});

describe('removeStrayTempFiles', () => {
  it('removes only old temp files of this file, as a crashed writer leaves them', async () => {
    const dir = await tempDir();
    const file = join(dir, 'prod.json');
    const names = {
      oldTemp: 'prod.json.4242.0badf00d.tmp',
      freshTemp: 'prod.json.4243.1234abcd.tmp',
      otherFile: 'staging.json.4242.0badf00d.tmp',
      lookalike: 'prod.json.backup.tmp',
    };
    for (const name of Object.values(names)) await writeFile(join(dir, name), '{"version": 1, "tar');
    const longAgo = new Date(Date.now() - STRAY_TEMP_AGE_MS - 60_000);
    for (const name of [names.oldTemp, names.otherFile, names.lookalike]) {
      await utimes(join(dir, name), longAgo, longAgo);
    }
    expect(await removeStrayTempFiles(file)).toEqual([names.oldTemp]);
    expect((await readdir(dir)).sort()).toEqual([names.freshTemp, names.lookalike, names.otherFile].sort());
  });

  it('does nothing when the directory does not exist', async () => {
    expect(await removeStrayTempFiles(join(await tempDir(), 'missing', 'prod.json'))).toEqual([]);
  });
});

describe('describeFsError', () => {
  it('says what a full disk is, keeping the OS message', () => {
    expect(describeFsError(osError('ENOSPC', 'write'))).toBe('disk full (ENOSPC: simulated, write)');
    expect(describeFsError(osError('EWHATEVER', 'open'))).toBe('EWHATEVER: simulated, open');
    expect(describeFsError('plain')).toBe('plain');
  });
});
