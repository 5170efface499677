import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputFile, writeOutputFile } from '../../../src/cli/output-file.js';
import { BoundaryError } from '../../../src/fs-boundary.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const tempProject = useTempProjects('wfsync-output-file-');

/** A project at the root of a repository (its own `.git`). */
function project(): string {
  const dir = tempProject();
  mkdirSync(join(dir, '.git'));
  return dir;
}

describe('writeOutputFile', () => {
  it('refuses a link planted after the up-front check, and leaves where it points as it was', async () => {
    const cwd = project();
    const victim = join(tempProject({ victim: 'keep\n' }), 'victim');
    checkOutputFile(cwd, '--out', 'plan.json');
    symlinkSync(victim, join(cwd, 'plan.json'));
    const writing = writeOutputFile(cwd, '--out', 'plan.json', '{}\n');
    await expect(writing).rejects.toBeInstanceOf(BoundaryError);
    await expect(writing).rejects.toThrow(
      '--out plan.json: refusing to write through plan.json: it is a symbolic link (the file itself)',
    );
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
  });

  it('words an OS error with the flag and the path (a folder where the file should be)', async () => {
    const cwd = project();
    mkdirSync(join(cwd, 'plan.json'));
    await expect(writeOutputFile(cwd, '--out', 'plan.json', '{}\n')).rejects.toThrow(
      /^cannot write --out plan\.json: /,
    );
  });

  it('replaces a file, relative paths taken from the given working directory', async () => {
    const cwd = project();
    writeFileSync(join(cwd, 'report.sarif'), 'old, and longer than the new text\n');
    await writeOutputFile(cwd, '--output', 'report.sarif', 'new\n');
    expect(readFileSync(join(cwd, 'report.sarif'), 'utf8')).toBe('new\n');
  });
});
