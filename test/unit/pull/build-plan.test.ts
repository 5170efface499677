import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckedDefinition } from '../../../src/check/check-definitions.js';
import type { DefinitionWithIncludes } from '../../../src/definitions/include-references.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { applyPullPlan } from '../../../src/pull/apply.js';
import { buildPullPlan, type PullFiles, type PullPlanInput } from '../../../src/pull/build-plan.js';
import {
  buildDefinitionFromRemote,
  buildDefinitionYaml,
  SCHEMA_MODELINE,
} from '../../../src/pull/convert.js';
import type { StateEntry } from '../../../src/state/types.js';
import { bodyOf, definition, GROUPS, storedFor } from '../plan/helpers.js';

/** The modeline SCHEMA_MODELINE writes, as the disk would choose it. */
const VENDORED = { source: 'vendored', schema: '../schemas/workflow.schema.json' } as const;

/** A project at /p seen through an in-memory disk: file → text. */
function disk(files: Record<string, string>, dir?: string): PullFiles {
  return {
    pathOf: (identifier, known) =>
      known ? `/p/${known.file}` : `/p/${dir ?? 'workflows'}/${identifier}.yaml`,
    beside: (path, file) => posix.join(posix.dirname(path), file),
    exists: (path) => Object.hasOwn(files, path),
    read: (path) => files[path] ?? '',
    display: (path) => posix.relative('/p', path),
    modeline: () => VENDORED,
    outsideDir: (path) => dir !== undefined && !path.startsWith(`/p/${dir}/`),
  };
}

function loaded(file: string, text: string): CheckedDefinition {
  const parsed = parseDefinition(file, new TextEncoder().encode(text));
  if (!parsed.definition) throw new Error(`${file} does not parse`);
  const workflow = parsed.definition.value as WorkflowDefinition;
  return { ...parsed.definition, workflow, identifier: workflow.triggers[0].identifier };
}

const DEF = definition();
const STORED = storedFor(bodyOf(DEF));
/** The file pull writes for STORED when there is none. */
const FRESH = buildDefinitionYaml(buildDefinitionFromRemote(STORED, { groups: GROUPS }));

function input(overrides: Partial<PullPlanInput> = {}): PullPlanInput {
  return {
    target: 'production',
    fetched: [{ requested: 'order-shipped', workflow: STORED }],
    definitions: [],
    groups: GROUPS,
    files: disk({}),
    force: false,
    ...overrides,
  };
}

describe('buildPullPlan', () => {
  it('a workflow without a file: the generated text in a new file, and the body state records', () => {
    expect(buildPullPlan(input())).toEqual({
      target: 'production',
      items: [
        {
          requested: 'order-shipped',
          identifier: 'order-shipped',
          id: STORED._id,
          path: '/p/workflows/order-shipped.yaml',
          file: 'workflows/order-shipped.yaml',
          created: true,
          text: FRESH,
          changed: [],
          modeline: VENDORED,
          includes: [],
          body: bodyOf(DEF),
          notes: [],
        },
      ],
    });
  });

  it('a workflow asked for twice (by its identifier, then by its id) is planned once, from the first request', () => {
    const twice = [
      { requested: 'order-shipped', workflow: STORED },
      { requested: STORED._id, workflow: STORED },
      { requested: 'order-shipped', workflow: STORED },
    ];
    const plan = buildPullPlan(input({ fetched: twice }));
    expect(plan.items).toHaveLength(1);
    expect(plan.items[0]).toMatchObject({ requested: 'order-shipped', file: 'workflows/order-shipped.yaml' });
  });

  it('the modeline is the one the disk gives for where the file goes, and the item says which', () => {
    const chosen = (path: string) => ({ source: 'installed' as const, schema: `schema for ${path}` });
    const files = { ...disk({}, 'imported/deep'), modeline: chosen };
    const [item] = buildPullPlan(input({ files })).items;
    expect(item).toMatchObject({
      path: '/p/imported/deep/order-shipped.yaml',
      created: true,
      modeline: { source: 'installed', schema: 'schema for /p/imported/deep/order-shipped.yaml' },
    });
    expect((item as { text: string }).text).toBe(
      FRESH.replace(
        SCHEMA_MODELINE,
        '# yaml-language-server: $schema=schema for /p/imported/deep/order-shipped.yaml',
      ),
    );
    // None to give (it would not resolve there): no modeline line, and null.
    const [bare] = buildPullPlan(input({ files: { ...disk({}), modeline: () => undefined } })).items;
    expect(bare).toMatchObject({ created: true, modeline: null });
    expect((bare as { text: string }).text).toBe(FRESH.replace(`${SCHEMA_MODELINE}\n`, ''));
  });

  it('a merged file keeps its own modeline, and the item names it (source file), or null when it has none', () => {
    const file = 'workflows/order-shipped.yaml';
    const own = FRESH.replace(SCHEMA_MODELINE, '# yaml-language-server: $schema=https://example.test/w.json');
    const edited = own.replace('Order {{orderId}} shipped', 'Old text');
    const merged = buildPullPlan(
      input({ definitions: [loaded(file, edited)], files: disk({ [`/p/${file}`]: edited }) }),
    ).items[0];
    expect(merged).toMatchObject({
      created: false,
      text: own,
      modeline: { source: 'file', schema: 'https://example.test/w.json' },
    });
    const none = edited.replace(/^# yaml-language-server:.*\n/, '');
    const bare = buildPullPlan(
      input({ definitions: [loaded(file, none)], files: disk({ [`/p/${file}`]: none }) }),
    ).items[0];
    expect(bare).toMatchObject({ created: false, modeline: null });
  });

  it('what the service does not have, or cannot be a file, fails with the reason; the rest still goes', () => {
    const noTrigger = { ...STORED, triggers: [] };
    const plan = buildPullPlan(
      input({
        fetched: [
          { requested: 'nope', workflow: undefined },
          { requested: 'odd', workflow: noTrigger },
          { requested: 'deep', workflow: undefined, failed: 'GET /v1/workflows/deep: 200 with a response …' },
          { requested: 'order-shipped', workflow: STORED },
        ],
      }),
    );
    expect(plan.items.slice(0, 3)).toEqual([
      { requested: 'nope', failed: 'not found on target "production"' },
      { requested: 'odd', failed: "the service's workflow has no trigger identifier; nothing written" },
      { requested: 'deep', failed: 'GET /v1/workflows/deep: 200 with a response …' },
    ]);
    expect(plan.items[3]).toMatchObject({ identifier: 'order-shipped', created: true });
  });

  it('an identifier that is not a slug never becomes a path: that workflow fails, nothing is asked of the disk', () => {
    const asked: string[] = [];
    const files = disk({});
    const watching: PullFiles = {
      ...files,
      pathOf: (identifier, known) => {
        asked.push(identifier);
        return files.pathOf(identifier, known);
      },
    };
    const hostile = (identifier: string, id: string) => ({
      ...STORED,
      _id: id,
      triggers: [{ ...STORED.triggers[0]!, identifier }],
    });
    for (const force of [false, true]) {
      asked.length = 0;
      const plan = buildPullPlan(
        input({
          force,
          files: watching,
          fetched: [
            { requested: 'a', workflow: hostile('../../x', 'a'.repeat(24)) },
            { requested: 'b', workflow: hostile('a/b', 'b'.repeat(24)) },
            { requested: 'order-shipped', workflow: STORED },
          ],
        }),
      );
      expect(plan.items.slice(0, 2)).toEqual([
        {
          requested: 'a',
          failed:
            'the service\'s trigger identifier "../../x" cannot name a file: it is not an identifier the service ' +
            'derives (lower-case letters and digits joined by single hyphens); nothing written',
        },
        { requested: 'b', failed: expect.stringContaining('trigger identifier "a/b" cannot name a file') },
      ]);
      expect(plan.items[2]).toMatchObject({ identifier: 'order-shipped', created: true });
      expect(asked).toEqual(['order-shipped']);
    }
  });

  it('a file at the destination that is not the definition: refused (usage), unless --force', () => {
    const files = disk({ '/p/workflows/order-shipped.yaml': 'something else\n' });
    let thrown: unknown;
    try {
      buildPullPlan(input({ files }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WfsyncError);
    expect(thrown).toMatchObject({
      message:
        '/p/workflows/order-shipped.yaml already exists and is not the definition of order-shipped; use --force to overwrite it',
      exitCode: ExitCode.Usage,
    });
    expect(buildPullPlan(input({ files, force: true })).items[0]).toMatchObject({
      created: true,
      text: FRESH,
    });
  });

  it('the definition file already says it: nothing to write, the entry is still recorded', () => {
    const file = 'workflows/shipped.yaml';
    const text = `# kept\n${FRESH}`;
    const plan = buildPullPlan(
      input({ definitions: [loaded(file, text)], files: disk({ [`/p/${file}`]: text }) }),
    );
    expect(plan.items).toEqual([
      {
        requested: 'order-shipped',
        identifier: 'order-shipped',
        id: STORED._id,
        path: `/p/${file}`,
        file,
        created: false,
        changed: [],
        modeline: { source: 'file', schema: '../schemas/workflow.schema.json' },
        includes: [],
        body: bodyOf(DEF),
        notes: [],
      },
    ]);
  });

  it('drift: the existing file is merged into (its comment stays), and --dir elsewhere says it only places new files', () => {
    const file = 'workflows/order-shipped.yaml';
    const old = `# kept\n${FRESH.replace('Order {{orderId}} shipped', 'Old text')}`;
    const plan = buildPullPlan(
      input({ definitions: [loaded(file, old)], files: disk({ [`/p/${file}`]: old }, 'imported') }),
    );
    expect(plan.items).toEqual([
      expect.objectContaining({
        created: false,
        text: `# kept\n${FRESH}`,
        changed: ['steps[0].template.content'],
        notes: ['its existing file; --dir only places new files'],
      }),
    ]);
  });

  it('text kept in a file goes back to that file, in its own style; the definition keeps the reference', () => {
    const file = 'workflows/order-shipped.yaml';
    const text = FRESH.replace('content: Order {{orderId}} shipped', 'content: { file: ./inbox.txt }');
    const known: CheckedDefinition & DefinitionWithIncludes = {
      ...loaded(file, text),
      value: DEF,
      workflow: DEF,
      includes: [
        {
          pointer: '/steps/0/template/content',
          path: './inbox.txt',
          absolute: '/p/workflows/inbox.txt',
          file: 'workflows/inbox.txt',
          text: 'Old text',
          style: { bom: false, crlf: true },
        },
      ],
    };
    const [item] = buildPullPlan(
      input({ definitions: [known], files: disk({ [`/p/${file}`]: text }) }),
    ).items;
    expect(item).toMatchObject({
      created: false,
      changed: ['steps[0].template.content'],
      includes: [
        {
          path: '/p/workflows/inbox.txt',
          file: 'workflows/inbox.txt',
          text: 'Order {{orderId}} shipped\r\n',
        },
      ],
      body: bodyOf(DEF),
      notes: [],
    });
    expect(item).not.toHaveProperty('text');
  });

  it('--split-content: long text goes to a new file beside the definition, its name not taken yet', () => {
    const long = 'one\ntwo\nthree';
    const def: WorkflowDefinition = {
      ...DEF,
      steps: [{ name: 'inbox', template: { type: 'in_app', content: long } }],
    };
    const stored = storedFor(bodyOf(def));
    const files = disk({ '/p/workflows/order-shipped.inbox.txt': 'taken' });
    const [item] = buildPullPlan(
      input({ fetched: [{ requested: 'x', workflow: stored }], files, splitContent: 2 }),
    ).items;
    expect(item).toMatchObject({
      created: true,
      includes: [
        {
          path: '/p/workflows/order-shipped.inbox-2.txt',
          file: 'workflows/order-shipped.inbox-2.txt',
          text: `${long}\n`,
        },
      ],
      body: bodyOf(def),
    });
    expect((item as { text: string }).text).toContain('content: { file: ./order-shipped.inbox-2.txt }\n');
  });
});

describe('applyPullPlan', () => {
  it('writes included files before the definition, records each entry, and skips what failed', async () => {
    const calls: string[] = [];
    const plan = buildPullPlan(
      input({
        fetched: [
          { requested: 'nope', workflow: undefined },
          { requested: 'order-shipped', workflow: STORED },
        ],
      }),
    );
    const item = plan.items[1] as { includes: unknown[] };
    item.includes = [{ path: '/p/workflows/a.txt', file: 'workflows/a.txt', text: 'A' }];
    await applyPullPlan(plan, {
      writeFile: async (path, text) => {
        calls.push(`write ${path} ${text.length}`);
      },
      store: {
        recordWorkflow: async (identifier: string, entry: StateEntry) => {
          calls.push(`record ${identifier} ${JSON.stringify(entry)}`);
        },
      },
      hash: (body) => `hash of ${(body as { name: string }).name}`,
      now: () => new Date(Date.UTC(2026, 0, 2)),
    });
    expect(calls).toEqual([
      'write /p/workflows/a.txt 1',
      `write /p/workflows/order-shipped.yaml ${FRESH.length}`,
      `record order-shipped ${JSON.stringify({
        id: STORED._id,
        hash: 'hash of order shipped',
        origin: 'adopted',
        file: 'workflows/order-shipped.yaml',
        recordedAt: '2026-01-02T00:00:00.000Z',
      })}`,
    ]);
  });

  it('an unchanged file is not written, and a workflow without a body is not recorded', async () => {
    const calls: string[] = [];
    const plan = buildPullPlan(input());
    const item = plan.items[0] as { text?: string; body?: unknown };
    delete item.text;
    delete item.body;
    await applyPullPlan(plan, {
      writeFile: async (path) => {
        calls.push(path);
      },
      store: {
        recordWorkflow: async (identifier: string) => {
          calls.push(identifier);
        },
      },
      hash: () => '',
      now: () => new Date(0),
    });
    expect(calls).toEqual([]);
  });
});
