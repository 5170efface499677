import { describe, expect, it } from 'vitest';
import { compareWorkflow } from '../../../src/plan/compare.js';
import { createAndFetch, desiredOf, emulator, exampleDefinitions, OTHER_GROUP_ID } from './helpers.js';

const examples = exampleDefinitions();

describe('every example workflow, created in the emulator and read back', () => {
  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });

  it.each(examples.map((e) => [e.file, e] as const))(
    '%s compares with no changes',
    async (_file, example) => {
      const emu = await emulator();
      const groups = { defaultId: emu.notificationGroupId, named: { transactional: OTHER_GROUP_ID } };
      const desired = desiredOf(example.definition, { file: example.file, groups });
      const stored = await createAndFetch(emu, desired.body);
      expect(stored.triggers[0]?.identifier).toBe(desired.identifier);
      expect(compareWorkflow(desired, stored)).toEqual({ changes: [], diff: '' });
    },
  );
});
