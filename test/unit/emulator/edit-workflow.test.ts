import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempProjects } from '../../helpers/temp-project.js';
import { get, post, start, workflowBody } from './helpers.js';

const tempProject = useTempProjects('wfsync-emulator-edit-');

describe('editWorkflow (a dashboard edit, for tests)', () => {
  it('changes what GET returns, bumps __v and updatedAt, keeps the identity', async () => {
    let now = Date.parse('2024-05-01T10:00:00.000Z');
    const emulator = await start({ seed: 3, clock: () => now });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    now += 60_000;
    const edited = emulator.editWorkflow('order-shipped', (w) => {
      w.description = 'edited in the dashboard';
      (w.steps[0]!.template as { content: string }).content = 'Changed {{firstName}}';
      w._id = '000000000000000000000000';
    });
    expect(edited._id).toBe(created._id);
    expect(edited.__v).toBe(1);
    expect(edited.updatedAt).toBe('2024-05-01T10:01:00.000Z');
    expect(edited.createdAt).toBe(created.createdAt);
    const byId = (await get(emulator, created._id)).body.data;
    expect(byId).toEqual(edited);
    expect(byId.description).toBe('edited in the dashboard');
    expect(byId.steps[0].template.content).toBe('Changed {{firstName}}');
    expect((await get(emulator, 'order-shipped')).body.data).toEqual(edited);
    expect(emulator.workflows()).toEqual([edited]);

    const again = emulator.editWorkflow(created._id, (w) => {
      w.tags = ['x'];
    });
    expect(again.__v).toBe(2);
    expect(again.description).toBe('edited in the dashboard');
  });

  it('the mutator only ever sees a copy', async () => {
    const emulator = await start({ seed: 4 });
    await post(emulator, workflowBody(emulator));
    let kept: { name: string } | undefined;
    emulator.editWorkflow('order-shipped', (w) => {
      kept = w;
    });
    kept!.name = 'changed after the edit';
    expect(emulator.workflows()[0]!.name).toBe('Order Shipped');
  });

  it('throws for an unknown workflow and changes nothing', async () => {
    const emulator = await start({ seed: 5 });
    await post(emulator, workflowBody(emulator));
    const before = emulator.workflows();
    expect(() => emulator.editWorkflow('nope', () => undefined)).toThrow(/no workflow "nope"/);
    expect(emulator.workflows()).toEqual(before);
  });

  it('persists the edit to the data file', async () => {
    const dir = tempProject();
    const dataFile = join(dir, 'data.json');
    const first = await start({ dataFile });
    await post(first, workflowBody(first));
    first.editWorkflow('order-shipped', (w) => {
      w.description = 'persisted edit';
    });
    await first.close();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(saved.workflows[0].description).toBe('persisted edit');
    const second = await start({ dataFile });
    expect((await get(second, 'order-shipped')).body.data.__v).toBe(1);
  });
});
