import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writePlanPreviews } from '../../../src/cli/plan-previews.js';
import { BoundaryError } from '../../../src/fs-boundary.js';
import type { DesiredWorkflow, Plan } from '../../../src/plan/types.js';
import { aPlanItem } from '../../helpers/plan-item.js';
import { useTempProjects } from '../../helpers/temp-project.js';
import { aWorkflow } from '../../helpers/workflow.js';
import { desiredOf } from '../plan/helpers.js';
import { planOf } from '../report/plan/fixture-plan.js';

const tempProject = useTempProjects('wfsync-previews-');
let dir: string;
beforeEach(() => {
  dir = tempProject();
});

function planWith(identifier: string): { plan: Plan; desired: DesiredWorkflow[] } {
  const desired = desiredOf(aWorkflow({ triggers: [{ type: 'event', identifier }] }));
  const plan = planOf([aPlanItem(identifier, 'create', { file: desired.file, body: desired.body })], {
    name: 'dev',
    baseUrl: 'http://127.0.0.1',
  });
  return { plan, desired: [desired] };
}

describe('writePlanPreviews', () => {
  it('writes each page and the index inside the directory, creating it; a hostile identifier stays inside', async () => {
    const { plan, desired } = planWith('../../escape');
    const written = await writePlanPreviews('out/previews', plan, desired, dir);
    expect(written).toEqual({ count: 1, shown: 'out/previews' });
    expect(readdirSync(join(dir, 'out/previews')).sort()).toEqual(['escape.html', 'index.html']);
    expect(readdirSync(dir).sort()).toEqual(['out']);
  });

  it('never writes through a symbolic link planted where a page goes', async () => {
    const { plan, desired } = planWith('order-shipped');
    mkdirSync(join(dir, 'previews'));
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'keep');
    symlinkSync(outside, join(dir, 'previews/order-shipped.html'));
    await expect(writePlanPreviews('previews', plan, desired, dir)).rejects.toBeInstanceOf(BoundaryError);
    expect(readFileSync(outside, 'utf8')).toBe('keep');
  });
});
