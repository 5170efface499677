import { describe, expect, it } from 'vitest';
import { documentTarget, documentVerdict, needingAPerson } from '../../../src/ci/document.js';
import { type CiProvider, decideVerdict, type RelayedRun } from '../../../src/ci/verdict.js';

const run = (over: Partial<RelayedRun>): RelayedRun => ({
  provider: 'gitlab',
  command: 'plan',
  code: 0,
  target: 'development',
  changeRequest: true,
  who: '',
  ...over,
});

describe('the verdict every provider relays', () => {
  it.each<CiProvider>(['github', 'gitlab'])(
    '%s: 0 passes, 2 passes a plan, 6 fails naming who, others keep their code',
    (provider) => {
      expect(decideVerdict(run({ provider }))).toMatchObject({ level: 'notice', exitCode: 0 });
      expect(decideVerdict(run({ provider, code: 2 }))).toMatchObject({ level: 'notice', exitCode: 0 });
      expect(decideVerdict(run({ provider, code: 2, changeRequest: false }))).toMatchObject({
        level: 'warning',
        exitCode: 0,
      });
      const six = decideVerdict(run({ provider, code: 6, who: 'welcome (drifted)' }));
      expect(six).toMatchObject({ level: 'error', exitCode: 6 });
      expect(six.text).toContain('a workflow needs a person: welcome (drifted).');
      const synced = decideVerdict(run({ provider, command: 'sync', code: 6, who: 'billing (conflict)' }));
      expect(synced.text).toContain(
        'synced what sync may apply, but a workflow needs a person: billing (conflict).',
      );
      // A sync has no "workflows to create" pass: 2 there is a failure like any other code.
      expect(decideVerdict(run({ provider, command: 'sync', code: 2 })).exitCode).toBe(2);
      expect(decideVerdict(run({ provider, code: 4, meaning: 'the API key\nwas refused' }))).toEqual({
        level: 'error',
        text: 'failed (exit 4: the API key was refused); the output above says why.',
        exitCode: 4,
      });
      expect(decideVerdict(run({ provider, code: 300 })).exitCode).toBe(1);
    },
  );

  it('names where the plan is shown as the provider shows it', () => {
    expect(decideVerdict(run({ code: 2 })).text).toBe(
      'merging creates what the plan note lists; the sync on the default branch applies it.',
    );
    expect(decideVerdict(run({ provider: 'github', code: 2 })).text).toBe(
      'merging creates what the plan lists; the sync after the merge applies it.',
    );
    expect(decideVerdict(run({ code: 6 })).text).toContain('see the plan note');
  });
});

describe('what the relay reads of a document', () => {
  const plan = {
    exitCode: 6,
    needsPerson: ['billing', 'evil\n::x'],
    meaning: 'a workflow needs a person',
    target: { name: 'development' },
    items: [
      { identifier: 'billing', action: 'conflict' },
      { identifier: 'invoice', action: 'create' },
      { identifier: 'evil\n::x', action: 'orphaned' },
    ],
  };

  it("names the document's workflows with their class, made safe", () => {
    expect(needingAPerson(plan)).toBe('billing (conflict), evil???x (orphaned)');
    const synced = {
      ...plan,
      needsPerson: ['billing'],
      outcomes: [{ identifier: 'billing', outcome: 'drifted' }],
    };
    expect(needingAPerson(synced)).toBe('billing (drifted)');
  });

  it('reads no verdict from a document before schemaVersion 3, or from none', () => {
    expect(documentVerdict(plan)).toEqual({
      exitCode: 6,
      needsPerson: ['billing', 'evil\n::x'],
      meaning: 'a workflow needs a person',
    });
    const { exitCode: _, ...older } = plan;
    expect(documentVerdict(older)).toBeUndefined();
    expect(needingAPerson(older)).toBe('');
    expect(documentVerdict(undefined)).toBeUndefined();
    expect(needingAPerson([1, 2])).toBe('');
  });

  it('finds the target in a plan and in the plan a sync carried out', () => {
    expect(documentTarget(plan)).toBe('development');
    expect(documentTarget({ outcomes: [], plan })).toBe('development');
    expect(documentTarget({ target: 'x' })).toBeUndefined();
  });
});
