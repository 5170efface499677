/**
 * `plan --previews <dir>` in a checkout of a contributor's branch: the branch may commit the folder, or a file in
 * it, as a symbolic link out of the project. Nothing is written through one.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writePlanPreviews } from '../../src/cli/plan-previews.js';
import type { Plan } from '../../src/plan/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-previews-'));
  dirs.push(dir);
  return dir;
}

const EMPTY_PLAN = { items: [] } as unknown as Plan;

describe('plan --previews <dir>', () => {
  it('refuses a previews folder that is a symbolic link out of the project', async () => {
    const project = temp();
    const outside = temp();
    symlinkSync(outside, join(project, 'previews'));
    await expect(writePlanPreviews('previews', EMPTY_PLAN, [], project)).rejects.toThrow();
    expect(existsSync(join(outside, 'index.html'))).toBe(false);
  });

  it('never writes through a file that is a symbolic link', async () => {
    const project = temp();
    const outside = temp();
    writeFileSync(join(outside, 'victim'), 'keep me');
    mkdirSync(join(project, 'previews'));
    symlinkSync(join(outside, 'victim'), join(project, 'previews', 'index.html'));
    await writePlanPreviews('previews', EMPTY_PLAN, [], project).catch(() => undefined);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('keep me');
  });
});
