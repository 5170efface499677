import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writePlanPreviews } from '../../../src/cli/plan-previews.js';
import { BoundaryError } from '../../../src/fs-boundary.js';
import type { DesiredWorkflow, Plan } from '../../../src/plan/types.js';
import { useTempProjects } from '../../helpers/temp-project.js';
import { aWorkflow } from '../../helpers/workflow.js';

const tempProject = useTempProjects('wfsync-previews-');
let dir: string;
beforeEach(() => {
  dir = tempProject();
});

function planWith(identifier: string): { plan: Plan; desired: DesiredWorkflow[] } {
  const definition = aWorkflow({ triggers: [{ type: 'event', identifier }] });
  const desired: DesiredWorkflow = {
    identifier,
    file: `workflows/${identifier}.yaml`,
    definition,
    body: {
      name: definition.name,
      notificationGroupId: 'g',
      steps: definition.steps.map((step) => ({ ...step })),
    },
    hash: `sha256:${'0'.repeat(64)}`,
  };
  const plan: Plan = {
    version: 1,
    target: { name: 'dev', baseUrl: 'http://127.0.0.1' },
    items: [{ identifier, action: 'create', file: desired.file, body: desired.body, changes: [], next: '' }],
    summary: {
      create: 1,
      update: 0,
      delete: 0,
      promote: 0,
      inSync: 0,
      drifted: 0,
      changedLocally: 0,
      missingRemotely: 0,
      conflict: 0,
      orphaned: 0,
      error: 0,
    },
    ignoredFields: [],
  };
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
