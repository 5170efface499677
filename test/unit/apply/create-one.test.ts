import { describe, expect, it } from 'vitest';
import { buildSyncAdvice } from '../../../src/apply/create-failure.js';
import { type CreateContext, createOne } from '../../../src/apply/create-one.js';
import type { ApplyEvent } from '../../../src/apply/events.js';
import { clientEventsForProgress } from '../../../src/apply/workflow-context.js';
import type { PlanItem } from '../../../src/plan/types.js';
import type { CreateResult, WorkflowResponse } from '../../../src/remote/index.js';
import { remoteError, type Step, type WorldScript, world } from '../../helpers/create-world.js';
import { clone, definition, desiredOf, storedFor } from '../plan/helpers.js';

// The declared identifier differs from both slugs of the name (`ordershipped-now`, `order-shipped-now`), so every
// identifier a lost response is looked up under is told apart.
const DESIRED = desiredOf(
  definition({ name: 'Order_Shipped now', triggers: [{ type: 'event', identifier: 'shipped' }] }),
);
const FILE = 'workflows/shipped.yaml';
const ID = '65f1a2b3c4d5e6f708192a3b';
const OTHER_ID = '65f1a2b3c4d5e6f708192aff';
const NOW = '2024-10-01T12:00:00.000Z';
const KEY = `wfsync:dev:shipped:${DESIRED.hash.slice('sha256:'.length, 'sha256:'.length + 16)}`;

const ITEM: PlanItem = {
  identifier: 'shipped',
  action: 'create',
  file: FILE,
  name: DESIRED.body.name,
  changes: [],
  next: 'run `wfsync sync` to create it',
  body: DESIRED.body,
  desiredHash: DESIRED.hash,
};

/** When the service saved it: state records the version it created (`<_id>@<updatedAt>#<__v>`). */
const SAVED_AT = '2024-10-01T11:59:59.000Z';

/** The workflow the service stores for DESIRED, under `identifier` (null: with no trigger). */
function stored(identifier: string | null = 'shipped', id = ID): WorkflowResponse {
  const workflow = clone(storedFor(DESIRED.body));
  workflow._id = id;
  workflow.updatedAt = SAVED_AT;
  workflow.__v = 3;
  if (identifier === null) workflow.triggers = [];
  else if (workflow.triggers[0] !== undefined) workflow.triggers[0].identifier = identifier;
  return workflow;
}

function created(workflow: WorkflowResponse, extra: Partial<CreateResult> = {}): () => Promise<CreateResult> {
  return async () => ({ workflow, reconciled: false, replayed: false, attempts: 1, ...extra });
}

function setup(script: WorldScript) {
  const w = world(script);
  const ctx: CreateContext = {
    client: w.client,
    store: w.store,
    target: 'dev',
    now: () => new Date(NOW),
    emit: w.emit,
    advice: buildSyncAdvice(),
  };
  return { ...w, ctx };
}

const JOURNALED: Step = {
  do: 'recordPending',
  entry: {
    identifier: 'shipped',
    lookupIdentifiers: ['shipped', 'ordershipped-now', 'order-shipped-now'],
    name: 'Order_Shipped now',
    hash: DESIRED.hash,
    idempotencyKey: KEY,
    startedAt: NOW,
  },
};
const CREATING: Step = { do: 'emit', event: { type: 'workflow', identifier: 'shipped', status: 'creating' } };
const POSTED: Step = {
  do: 'POST',
  body: DESIRED.body,
  options: {
    idempotencyKey: KEY,
    identifier: 'shipped',
    alternateIdentifiers: ['ordershipped-now', 'order-shipped-now'],
  },
};
const RECORDED: Step = {
  do: 'recordWorkflow',
  identifier: 'shipped',
  entry: {
    id: ID,
    hash: DESIRED.hash,
    origin: 'created',
    file: FILE,
    remoteVersion: `${ID}@${SAVED_AT}#3`,
    recordedAt: NOW,
  },
};
const VERIFYING: Step = {
  do: 'emit',
  event: { type: 'workflow', identifier: 'shipped', status: 'verifying' },
};
const CLEARED: Step = { do: 'clearPending', identifier: 'shipped' };

describe('createOne: a create that succeeds', () => {
  it('journals, posts, records, then reads the workflow back by its id, in that order', async () => {
    const { ctx, log } = setup({ post: created(stored()), get: async () => stored() });
    const outcome = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED, CREATING, POSTED, RECORDED, VERIFYING, { do: 'GET', key: ID }]);
    expect(outcome).toStrictEqual({
      result: { identifier: 'shipped', file: FILE, remoteId: ID, outcome: 'created', message: `id ${ID}` },
    });
  });

  it.each([
    { replayed: false, reconciled: false, message: `id ${ID}` },
    { replayed: true, reconciled: false, message: `id ${ID}; the service replayed an earlier attempt` },
    { replayed: false, reconciled: true, message: `id ${ID}; the response was lost, found by a lookup` },
    { replayed: true, reconciled: true, message: `id ${ID}; the service replayed an earlier attempt` },
  ])('replayed $replayed, reconciled $reconciled: "$message"', async ({ replayed, reconciled, message }) => {
    const { ctx } = setup({ post: created(stored(), { replayed, reconciled }), get: async () => stored() });
    const outcome = await createOne(ctx, ITEM, DESIRED);
    expect(outcome.result).toMatchObject({ outcome: 'created', message });
  });

  it('sends the body and hash the plan holds, and looks up the identifiers derived from that body', async () => {
    const body = { ...DESIRED.body, name: 'trial ending' };
    const hash = `sha256:${'ab'.repeat(32)}`;
    const { ctx, log } = setup({ post: created(stored()), get: async () => stored() });
    await createOne(ctx, { ...ITEM, body, desiredHash: hash }, DESIRED);
    expect(log.slice(0, 4)).toEqual([
      {
        do: 'recordPending',
        entry: {
          identifier: 'shipped',
          lookupIdentifiers: ['shipped', 'trial-ending'],
          name: 'trial ending',
          hash,
          idempotencyKey: 'wfsync:dev:shipped:abababababababab',
          startedAt: NOW,
        },
      },
      CREATING,
      {
        do: 'POST',
        body,
        options: {
          idempotencyKey: 'wfsync:dev:shipped:abababababababab',
          identifier: 'shipped',
          alternateIdentifiers: ['trial-ending'],
        },
      },
      { ...RECORDED, entry: { ...RECORDED.entry, hash } },
    ]);
  });

  it("without a hash in the plan item, journals the definition's", async () => {
    const { desiredHash: _hash, ...bare } = ITEM;
    const { ctx, log } = setup({ post: created(stored()), get: async () => stored() });
    await createOne(ctx, bare, DESIRED);
    expect(log.slice(0, 4)).toEqual([JOURNALED, CREATING, POSTED, RECORDED]);
  });

  it('a name that slugs to the declared identifier is looked up under that one identifier only', async () => {
    const desired = desiredOf(definition());
    const workflow = { ...storedFor(desired.body), _id: ID };
    const { ctx, log } = setup({ post: created(workflow), get: async () => workflow });
    await createOne(ctx, { ...ITEM, identifier: 'order-shipped', body: desired.body }, desired);
    expect(log[0]).toMatchObject({ entry: { lookupIdentifiers: ['order-shipped'] } });
    expect(log[2]).toMatchObject({ options: { identifier: 'order-shipped', alternateIdentifiers: [] } });
  });

  it("the client's retries and lookups during the POST are shown against this workflow", async () => {
    const events: ApplyEvent[] = [];
    const toProgress = clientEventsForProgress((event) => events.push(event));
    const { ctx } = setup({
      post: async () => {
        // A POST's path names no workflow: only the context apply runs the call in can.
        toProgress({ type: 'reconcile', method: 'POST', path: '/v1/workflows', attempt: 1, reason: 'lost' });
        return created(stored())();
      },
      get: async () => stored(),
    });
    await createOne(ctx, ITEM, DESIRED);
    expect(events).toEqual([
      {
        type: 'workflow',
        identifier: 'shipped',
        status: 'retrying',
        message: 'lost; checking whether it was created',
        attempt: 1,
      },
    ]);
  });
});

describe('createOne: the journal entry cannot be written', () => {
  it('sends nothing, emits nothing, and stops every later create', async () => {
    const { ctx, log } = setup({ failing: { recordPending: new Error('ENOSPC: no space left on device') } });
    const outcome = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED]);
    expect(outcome).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        outcome: 'failed',
        message: 'nothing was sent: the journal entry could not be written (ENOSPC: no space left on device)',
        next: "fix the state file's directory, then run `wfsync sync` again",
      },
      stop: 'state',
    });
  });
});

describe('createOne: the POST fails', () => {
  // outcome-unknown (the client could not rule out that it landed) and errors that are not the service's keep the
  // journal entry, so the next run looks the workflow up before creating anything; every other failure means
  // nothing was created, and the entry is cleared.
  it.each([
    { kind: 'outcome-unknown', keeps: true, outcome: 'failed', stop: undefined },
    { kind: 'validation', keeps: false, outcome: 'failed', stop: undefined },
    { kind: 'server', keeps: false, outcome: 'failed', stop: undefined },
    { kind: 'network', keeps: false, outcome: 'failed', stop: undefined },
    { kind: 'timeout', keeps: false, outcome: 'failed', stop: undefined },
    { kind: 'protocol', keeps: false, outcome: 'failed', stop: undefined },
    { kind: 'auth', keeps: false, outcome: 'failed', stop: 'auth' },
    { kind: 'rate-limited', keeps: false, outcome: 'failed', stop: 'rate-limited' },
    { kind: 'deadline', keeps: false, outcome: 'failed', stop: 'deadline' },
    { kind: 'cancelled', keeps: false, outcome: 'skipped', stop: 'cancelled' },
  ] as const)(
    '$kind: journal kept $keeps, outcome $outcome, stop $stop',
    async ({ kind, keeps, outcome, stop }) => {
      const error = remoteError(kind, 'it went wrong', { method: 'POST', path: '/v1/workflows' });
      const { ctx, log } = setup({
        post: async () => {
          throw error;
        },
      });
      const result = await createOne(ctx, ITEM, DESIRED);
      expect(log).toEqual(keeps ? [JOURNALED, CREATING, POSTED] : [JOURNALED, CREATING, POSTED, CLEARED]);
      expect(result.result).toMatchObject({ identifier: 'shipped', file: FILE, outcome });
      expect(result.result.remoteId).toBeUndefined();
      if (stop === undefined) expect(result).not.toHaveProperty('stop');
      else expect(result.stop).toBe(stop);
    },
  );

  it('an error that is not the service (a bug) keeps the journal entry and stops the run', async () => {
    const { ctx, log } = setup({
      post: async () => {
        throw new TypeError('undefined is not a function');
      },
    });
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED, CREATING, POSTED]);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        outcome: 'failed',
        message:
          'unexpected error while creating: undefined is not a function; it stays in the journal and will be reconciled by the next run',
        next: 'run `wfsync sync` again',
      },
      stop: 'unexpected',
    });
  });

  it('the service rejected it: its messages become diagnostics, and a journal that cannot be cleared is no failure', async () => {
    const error = remoteError('validation', '400 Bad Request', {
      method: 'POST',
      path: '/v1/workflows',
      serverMessages: ['steps must not be empty'],
    });
    const { ctx, log } = setup({
      post: async () => {
        throw error;
      },
      failing: { clearPending: new Error('EACCES: permission denied') },
    });
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED, CREATING, POSTED, CLEARED]);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        outcome: 'failed',
        message: 'the service rejected it: POST /v1/workflows: 400 Bad Request',
        next: 'fix the definition, then run `wfsync sync` again',
        diagnostics: [
          {
            code: 'service-rejected',
            severity: 'error',
            message: 'the service rejected this workflow: steps must not be empty',
            file: FILE,
            pointer: '',
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 1,
          },
        ],
      },
    });
  });
});

describe('createOne: the service gives the workflow another identifier', () => {
  /** `given`: the identifier in the POST's answer (null: no trigger at all). */
  const mismatch = (get: WorldScript['get'], given: string | null = 'ordershipped-now') =>
    setup({ post: created(stored(given)), get });

  it('the declared one is held by another workflow: a duplicate, reported and not recorded', async () => {
    const { ctx, log } = mismatch(async (key) =>
      key === 'shipped' ? stored('shipped', OTHER_ID) : undefined,
    );
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED, CREATING, POSTED, { do: 'GET', key: 'shipped' }, CLEARED]);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `the identifier shipped is taken by another workflow (id ${OTHER_ID}), so the service created a duplicate: workflow ${ID} with the identifier ordershipped-now`,
        next: `delete workflow ${ID} (ordershipped-now) in the dashboard, then rename this workflow or adopt the existing one with \`wfsync pull shipped\``,
      },
    });
  });

  it('a duplicate whose journal entry cannot be cleared is reported the same', async () => {
    const w = setup({
      post: created(stored('shipped-2')),
      get: async () => stored('shipped', OTHER_ID),
      failing: { clearPending: new Error('EACCES') },
    });
    const result = await createOne(w.ctx, ITEM, DESIRED);
    expect(w.log.at(-1)).toEqual(CLEARED);
    expect(result.result.message).toBe(
      `the identifier shipped is taken by another workflow (id ${OTHER_ID}), so the service created a duplicate: workflow ${ID} with the identifier shipped-2`,
    );
    expect(result).not.toHaveProperty('stop');
  });

  const derived = (shown: string) => ({
    result: {
      identifier: 'shipped',
      file: FILE,
      remoteId: ID,
      outcome: 'failed',
      message: `the service gave workflow ${ID} the identifier ${shown}, not shipped: triggers of shipped will not reach it`,
      next: `rename the workflow so the service derives shipped, delete workflow ${ID} in the dashboard, then \`wfsync state forget shipped\``,
    },
  });

  it.each([
    { case: 'nothing holds the declared identifier', get: async () => undefined },
    { case: 'the declared identifier finds this very workflow', get: async () => stored('shipped') },
    {
      case: 'looking the declared identifier up fails',
      get: async () => {
        throw remoteError('server', '503 Service Unavailable');
      },
    },
  ])('$case: recorded anyway (so the next run does not create it again), no read-back', async ({ get }) => {
    const { ctx, log } = mismatch(get);
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual([JOURNALED, CREATING, POSTED, { do: 'GET', key: 'shipped' }, RECORDED]);
    expect(result).toStrictEqual(derived('ordershipped-now'));
  });

  it('no trigger at all in the answer: shown as (none)', async () => {
    const { ctx } = mismatch(async () => undefined, null);
    expect(await createOne(ctx, ITEM, DESIRED)).toStrictEqual(derived('(none)'));
  });

  it('recorded anyway, but recording fails: the journal entry recovers it, and the run stops', async () => {
    const w = setup({
      post: created(stored('ordershipped-now')),
      get: async () => undefined,
      failing: { recordWorkflow: new Error('ENOSPC') },
    });
    const result = await createOne(w.ctx, ITEM, DESIRED);
    expect(w.log).toEqual([JOURNALED, CREATING, POSTED, { do: 'GET', key: 'shipped' }, RECORDED]);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `created (id ${ID}), but recording it failed (ENOSPC); the journal entry lets the next run recover it`,
        next: 'run `wfsync sync` again',
      },
      stop: 'state',
    });
  });
});

describe('createOne: recording the created workflow fails', () => {
  it('reports it, leaves the journal entry and stops the run; the read back made beside it is not reported', async () => {
    const { ctx, log } = setup({
      post: created(stored()),
      // What the read back found does not matter: the record's failure is the result.
      get: async () => undefined,
      failing: { recordWorkflow: new Error('EROFS: read-only file system') },
    });
    const result = await createOne(ctx, ITEM, DESIRED);
    // Recorded and read back at once (the read changes nothing): the record starts first.
    expect(log).toEqual([JOURNALED, CREATING, POSTED, RECORDED, VERIFYING, { do: 'GET', key: ID }]);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `created (id ${ID}), but recording it failed (EROFS: read-only file system); the journal entry lets the next run recover it`,
        next: 'run `wfsync sync` again',
      },
      stop: 'state',
    });
  });
});

describe('createOne: reading the created workflow back', () => {
  const CREATED_STEPS = [JOURNALED, CREATING, POSTED, RECORDED, VERIFYING, { do: 'GET', key: ID }];

  it('the service stored something else than was sent: failed, with the changes and a diff', async () => {
    const changed = stored();
    const step = changed.steps[0] as { template: { content: string } };
    step.template.content = 'Edited in transit';
    const { ctx, log } = setup({ post: created(stored()), get: async () => changed });
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual(CREATED_STEPS);
    expect(result).not.toHaveProperty('stop');
    expect(result.result).toMatchObject({
      identifier: 'shipped',
      file: FILE,
      remoteId: ID,
      outcome: 'failed',
      message: `created (id ${ID}), but the service stored something else than was sent`,
      changes: [
        expect.objectContaining({
          path: 'steps[0].template.content',
          kind: 'changed',
          desired: 'Order {{orderId}} shipped',
          actual: 'Edited in transit',
        }),
      ],
      diff: expect.stringContaining('Edited in transit'),
      next: 'compare the diff with the definition; the difference may need a change in the file or a report to the service',
    });
  });

  it('the service finds no workflow with that id', async () => {
    const { ctx, log } = setup({ post: created(stored()), get: async () => undefined });
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual(CREATED_STEPS);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `created (id ${ID}) and recorded, but the service finds no workflow with that id`,
        next: 'run `wfsync plan` to see what the service holds',
      },
    });
  });

  // A failure every later request would share ends the run; any other only fails this workflow's check.
  it.each([
    { kind: 'auth', stop: 'auth' },
    { kind: 'rate-limited', stop: 'rate-limited' },
    { kind: 'deadline', stop: 'deadline' },
    { kind: 'cancelled', stop: 'cancelled' },
    { kind: 'server', stop: undefined },
    { kind: 'network', stop: undefined },
    { kind: 'outcome-unknown', stop: undefined },
  ] as const)('reading it back fails with $kind: stop $stop', async ({ kind, stop }) => {
    const error = remoteError(kind, 'no answer', { path: `/v1/workflows/${ID}` });
    const { ctx, log } = setup({
      post: created(stored()),
      get: async () => {
        throw error;
      },
    });
    const result = await createOne(ctx, ITEM, DESIRED);
    expect(log).toEqual(CREATED_STEPS);
    expect(result).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `created (id ${ID}) and recorded, but reading it back failed: GET /v1/workflows/${ID}: no answer`,
        next: 'run `wfsync plan` to compare it',
      },
      ...(stop === undefined ? {} : { stop }),
    });
  });

  it('reading it back fails with an error that is not the service: failed, the run goes on', async () => {
    const { ctx } = setup({
      post: created(stored()),
      get: async () => {
        throw new RangeError('bad date');
      },
    });
    expect(await createOne(ctx, ITEM, DESIRED)).toStrictEqual({
      result: {
        identifier: 'shipped',
        file: FILE,
        remoteId: ID,
        outcome: 'failed',
        message: `created (id ${ID}) and recorded, but reading it back failed: bad date`,
        next: 'run `wfsync plan` to compare it',
      },
    });
  });
});
