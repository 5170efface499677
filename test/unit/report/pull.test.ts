import { describe, expect, it } from 'vitest';
import type { PulledWorkflow, PullPlan } from '../../../src/pull/build-plan.js';
import { pullRenderers } from '../../../src/report/pull.js';

const ID = '6650f0c0ffee00000000a0b1';

function pulled(identifier: string, overrides: Partial<PulledWorkflow> = {}): PulledWorkflow {
  const file = `workflows/${identifier}.yaml`;
  return {
    requested: identifier,
    identifier,
    id: ID,
    path: `/p/${file}`,
    file,
    created: false,
    changed: [],
    modeline: { source: 'file', schema: '../schemas/workflow.schema.json' },
    includes: [],
    body: { name: identifier } as PulledWorkflow['body'],
    notes: [],
    ...overrides,
  };
}

const html = { path: '/p/workflows/a.email.html', file: 'workflows/a.email.html', text: '<p></p>' };

const PLAN: PullPlan = {
  target: 'production',
  items: [
    pulled('new-one', { created: true, text: 'x', includes: [html], modeline: null }),
    pulled('same'),
    pulled('edited', { text: 'x', changed: ['description', 'tags'] }),
    pulled('html-only', { changed: ['steps[0].template.content'], includes: [html] }),
    pulled('many', { text: 'x', changed: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] }),
    pulled('whole', {
      text: 'x',
      changed: ['tags'],
      rewritten: 'the file does not read as a YAML mapping',
      includes: [html],
    }),
    pulled('noted', {
      changed: ['critical'],
      text: 'x',
      notes: ['its existing file; --dir only places new files', 'not recorded in state: no group'],
    }),
    { requested: 'nope', failed: 'not found on target "production"' },
  ],
};
delete (PLAN.items[6] as PulledWorkflow).body;

describe('pullRenderers.human', () => {
  it('a line per workflow on stdout, failures on stderr', () => {
    expect(pullRenderers.human(PLAN)).toEqual({
      stdout: [
        `pulled new-one (id ${ID}) → workflows/new-one.yaml, workflows/a.email.html`,
        'pulled same: workflows/same.yaml already matches the service',
        'pulled edited: 2 fields changed (description, tags) → workflows/edited.yaml',
        'pulled html-only: 1 field changed (steps[0].template.content) → workflows/a.email.html',
        'pulled many: 8 fields changed (a, b, c, d, e, f, and 2 more) → workflows/many.yaml',
        'pulled whole: rewritten whole, comments and layout not kept (the file does not read as a YAML mapping) → ' +
          'workflows/whole.yaml, workflows/a.email.html',
        'pulled noted: 1 field changed (critical) → workflows/noted.yaml (its existing file; --dir only places ' +
          'new files) (not recorded in state: no group)',
        '',
      ].join('\n'),
      stderr: 'wfsync: nope: not found on target "production"\n',
    });
  });

  it('nothing pulled: nothing printed', () => {
    expect(pullRenderers.human({ target: 't', items: [] })).toEqual({ stdout: '', stderr: '' });
  });
});

describe('pullRenderers.json', () => {
  it('one document, keys in a fixed order, nothing on stderr', () => {
    const { stdout, stderr } = pullRenderers.json({ target: 'production', items: PLAN.items.slice(0, 2) });
    expect(stderr).toBe('');
    expect(stdout).toBe(
      `${JSON.stringify(
        {
          schemaVersion: 4,
          target: 'production',
          summary: { written: 1, unchanged: 1, failed: 0 },
          workflows: [
            {
              requested: 'new-one',
              identifier: 'new-one',
              id: ID,
              file: 'workflows/new-one.yaml',
              action: 'written',
              created: true,
              changed: [],
              includes: ['workflows/a.email.html'],
              modeline: null,
              recorded: true,
              notes: [],
            },
            {
              requested: 'same',
              identifier: 'same',
              id: ID,
              file: 'workflows/same.yaml',
              action: 'unchanged',
              created: false,
              changed: [],
              includes: [],
              modeline: { source: 'file', schema: '../schemas/workflow.schema.json' },
              recorded: true,
              notes: [],
            },
          ],
        },
        null,
        2,
      )}\n`,
    );
  });

  it('written, failed, a rewrite and notes: in the entry; the summary counts each action', () => {
    const document = JSON.parse(pullRenderers.json(PLAN).stdout);
    expect(document.summary).toEqual({ written: 6, unchanged: 1, failed: 1 });
    expect(document.workflows.map((w: { action: string }) => w.action)).toEqual([
      'written',
      'unchanged',
      'written',
      'written',
      'written',
      'written',
      'written',
      'failed',
    ]);
    expect(document.workflows[5].notes).toEqual([
      'rewritten whole, comments and layout not kept (the file does not read as a YAML mapping)',
    ]);
    expect(document.workflows[6]).toMatchObject({
      recorded: false,
      notes: ['its existing file; --dir only places new files', 'not recorded in state: no group'],
    });
    expect(document.workflows[7]).toEqual({
      requested: 'nope',
      action: 'failed',
      reason: 'not found on target "production"',
    });
    expect(Object.keys(document.workflows[7])).toEqual(['requested', 'action', 'reason']);
  });
});
