import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../../src/apply/events.js';
import { reconcilePending } from '../../../src/apply/reconcile-pending.js';
import { clientEventsForProgress } from '../../../src/apply/workflow-context.js';
import type { WorkflowResponse } from '../../../src/remote/index.js';
import type { PendingCreate } from '../../../src/state/types.js';
import {
  pendingEntry,
  remoteError,
  type Step,
  type StoreCall,
  type WorldScript,
  world,
} from '../../helpers/create-world.js';
import { clone, definition, desiredOf, storedFor } from '../plan/helpers.js';

const NOW = '2024-10-01T12:00:00.000Z';
/** When the service saved the workflows it holds: state records the version found. */
const SAVED_AT = '2024-10-01T11:00:00.000Z';
const BASE = storedFor(desiredOf(definition()).body);

/** A workflow on the service with this name and id. */
function workflow(name: string, id: string): WorkflowResponse {
  return { ...clone(BASE), name, _id: id, updatedAt: SAVED_AT, __v: 1 };
}

/** The service holds `held` (identifier → workflow); anything else is a 404. */
function service(held: Record<string, WorkflowResponse | Error>): WorldScript['get'] {
  return async (key) => {
    const found = Object.hasOwn(held, key) ? held[key] : undefined;
    if (found instanceof Error) throw found;
    return found;
  };
}

async function reconcile(
  pending: PendingCreate[],
  get: WorldScript['get'],
  failing: WorldScript['failing'] = {},
) {
  const w = world({ pending: Object.fromEntries(pending.map((p) => [p.identifier, p])), get, failing });
  const run = reconcilePending({
    client: w.client,
    store: w.store,
    onEvent: (event) => w.log.push({ do: 'emit', event }),
    now: () => new Date(NOW),
  });
  return { ...w, run };
}

const gets = (log: Step[]) => log.flatMap((s) => (s.do === 'GET' ? [s.key] : []));
const fetching = (identifier: string): Step => ({
  do: 'emit',
  event: { type: 'workflow', identifier, status: 'fetching' },
});
const done = (identifier: string, message: string): Step => ({
  do: 'emit',
  event: { type: 'workflow', identifier, status: 'done', message },
});
const recovered = (id: string) =>
  `recovered an interrupted create: it had been created (id ${id}); recorded without sending it again`;
const NOT_REACHED = 'the interrupted create had not reached the service';

const SHIPPED = pendingEntry({
  identifier: 'shipped',
  name: 'Order_Shipped now',
  lookupIdentifiers: ['shipped', 'ordershipped-now', 'order-shipped-now'],
  hash: `sha256:${'ab'.repeat(32)}`,
});
const ID = '65f1a2b3c4d5e6f708192a3b';
const OTHER_ID = '65f1a2b3c4d5e6f708192aff';

describe('reconcilePending: which identifiers an interrupted create is looked up under', () => {
  it.each([
    { as: 'shipped', searched: ['shipped'] },
    { as: 'ordershipped-now', searched: ['shipped', 'ordershipped-now'] },
    { as: 'order-shipped-now', searched: ['shipped', 'ordershipped-now', 'order-shipped-now'] },
  ])('stored as $as: found there, after looking up $searched', async ({ as, searched }) => {
    const { run, log } = await reconcile([SHIPPED], service({ [as]: workflow('Order_Shipped now', ID) }));
    expect(await run).toEqual({
      recovered: [{ identifier: 'shipped', id: ID, foundAs: as }],
      cleared: [],
      unresolved: [],
    });
    expect(gets(log)).toEqual(searched);
  });

  it('not found anywhere: every candidate was looked up once', async () => {
    const entry = { ...SHIPPED, lookupIdentifiers: ['shipped', 'shipped', 'order-shipped-now'] };
    const { run, log } = await reconcile([entry], service({}));
    expect((await run).cleared).toEqual([{ identifier: 'shipped', reason: NOT_REACHED }]);
    expect(gets(log)).toEqual(['shipped', 'order-shipped-now', 'ordershipped-now']);
  });

  // A journal entry that lists fewer identifiers (an empty list, or one edited by hand) is looked up under the
  // declared identifier and both derivations of its name too: otherwise a create the service stored under a
  // derived identifier would be cleared as "not created", and sent a second time.
  it.each([
    { lookupIdentifiers: [], searched: ['order-shipped', 'ordershipped'] },
    { lookupIdentifiers: ['order-shipped'], searched: ['order-shipped', 'ordershipped'] },
    { lookupIdentifiers: ['legacy-id'], searched: ['legacy-id', 'order-shipped', 'ordershipped'] },
  ])('journaled $lookupIdentifiers: also derived from the name', async ({ lookupIdentifiers, searched }) => {
    const entry = pendingEntry({ identifier: 'order-shipped', name: 'orderShipped', lookupIdentifiers });
    const { run, log } = await reconcile([entry], service({ ordershipped: workflow('orderShipped', ID) }));
    expect((await run).recovered).toEqual([{ identifier: 'order-shipped', id: ID, foundAs: 'ordershipped' }]);
    expect(gets(log)).toEqual(searched);
  });

  it('a workflow of another name under a candidate is not the create; the next candidate is looked up', async () => {
    const { run, log } = await reconcile(
      [SHIPPED],
      service({
        shipped: workflow('Shipped', OTHER_ID),
        'order-shipped-now': workflow('Order_Shipped now', ID),
      }),
    );
    expect(await run).toEqual({
      recovered: [{ identifier: 'shipped', id: ID, foundAs: 'order-shipped-now' }],
      cleared: [],
      unresolved: [],
    });
    expect(log.filter((s) => s.do === 'recordWorkflow')).toEqual([
      {
        do: 'recordWorkflow',
        identifier: 'shipped',
        entry: {
          id: ID,
          hash: SHIPPED.hash,
          origin: 'created',
          remoteVersion: `${ID}@${SAVED_AT}#1`,
          recordedAt: NOW,
        },
      },
    ]);
  });
});

describe('reconcilePending: settling each journal entry', () => {
  it('found: recorded under the declared identifier with the journaled hash, and nothing is sent', async () => {
    const { run, log } = await reconcile([SHIPPED], service({ shipped: workflow('Order_Shipped now', ID) }));
    await run;
    expect(log).toEqual([
      { do: 'emit', event: { type: 'phase', phase: 'reconcile', total: 1 } },
      fetching('shipped'),
      { do: 'GET', key: 'shipped' },
      {
        do: 'recordWorkflow',
        identifier: 'shipped',
        entry: {
          id: ID,
          hash: SHIPPED.hash,
          origin: 'created',
          remoteVersion: `${ID}@${SAVED_AT}#1`,
          recordedAt: NOW,
        },
      },
      done('shipped', recovered(ID)),
    ]);
  });

  it('not found: cleared from the journal, so this run may create it', async () => {
    const { run, log } = await reconcile([SHIPPED], service({}));
    expect(await run).toEqual({
      recovered: [],
      cleared: [{ identifier: 'shipped', reason: NOT_REACHED }],
      unresolved: [],
    });
    expect(log.filter((s) => s.do !== 'GET')).toEqual([
      { do: 'emit', event: { type: 'phase', phase: 'reconcile', total: 1 } },
      fetching('shipped'),
      { do: 'clearPending', identifier: 'shipped' },
      done('shipped', NOT_REACHED),
    ]);
  });

  it('only workflows of other names under the candidates: cleared, naming them and the possible duplicate', async () => {
    const { run, log } = await reconcile(
      [SHIPPED],
      service({
        shipped: workflow('Shipped', OTHER_ID),
        'ordershipped-now': workflow('Order shipped "now"', ID),
      }),
    );
    const reason =
      '"shipped" belongs to the workflow named "Shipped"; "ordershipped-now" belongs to the workflow named "Order shipped \\"now\\"": if the interrupted create reached the service, it made a duplicate with a suffixed identifier (look for a second workflow named "Order_Shipped now" in the dashboard)';
    expect(await run).toEqual({
      recovered: [],
      cleared: [{ identifier: 'shipped', reason }],
      unresolved: [],
    });
    expect(log.filter((s) => s.do === 'clearPending' || s.do === 'recordWorkflow')).toEqual([
      { do: 'clearPending', identifier: 'shipped' },
    ]);
    expect(log.at(-1)).toEqual(done('shipped', reason));
  });

  it.each([
    'server',
    'network',
    'timeout',
    'protocol',
    'not-found',
    'validation',
    'outcome-unknown',
  ] as const)(
    'a lookup failing with %s: the entry stays in the journal, unresolved, and the next entry is settled',
    async (kind) => {
      const { run, log } = await reconcile(
        [SHIPPED, pendingEntry({ identifier: 'trial-ending', name: 'trial ending' })],
        service({
          'ordershipped-now': remoteError(kind, '503 Service Unavailable', { path: '/v1/workflows/x' }),
        }),
      );
      const message =
        'could not tell whether the interrupted create of shipped reached the service (GET /v1/workflows/x: 503 Service Unavailable); it stays in the journal and is not created again until a later run can tell';
      expect(await run).toEqual({
        recovered: [],
        cleared: [{ identifier: 'trial-ending', reason: NOT_REACHED }],
        unresolved: [{ identifier: 'shipped', message }],
      });
      expect(log).toEqual([
        { do: 'emit', event: { type: 'phase', phase: 'reconcile', total: 2 } },
        fetching('shipped'),
        { do: 'GET', key: 'shipped' },
        { do: 'GET', key: 'ordershipped-now' },
        done('shipped', message),
        fetching('trial-ending'),
        { do: 'GET', key: 'trial-ending' },
        { do: 'clearPending', identifier: 'trial-ending' },
        done('trial-ending', NOT_REACHED),
      ]);
    },
  );

  it.each(['auth', 'rate-limited', 'cancelled', 'deadline'] as const)(
    'a lookup failing with %s ends reconciling: that entry and the later ones stay in the journal',
    async (kind) => {
      const error = remoteError(kind);
      const { run, log } = await reconcile(
        [SHIPPED, pendingEntry({ identifier: 'trial-ending', name: 'trial ending' })],
        service({ shipped: error }),
      );
      await expect(run).rejects.toBe(error);
      expect(log).toEqual([
        { do: 'emit', event: { type: 'phase', phase: 'reconcile', total: 2 } },
        fetching('shipped'),
        { do: 'GET', key: 'shipped' },
      ]);
    },
  );

  it('a lookup failing with an error that is not the service ends reconciling', async () => {
    const error = new TypeError('bug');
    const { run, log } = await reconcile([SHIPPED], service({ shipped: error }));
    await expect(run).rejects.toBe(error);
    expect(log.some((s) => s.do === 'clearPending' || s.do === 'recordWorkflow')).toBe(false);
  });

  it.each<{ failing: StoreCall; held: Record<string, WorkflowResponse> }>([
    { failing: 'recordWorkflow', held: { shipped: workflow('Order_Shipped now', ID) } },
    { failing: 'clearPending', held: {} },
  ])('the state write ($failing) fails: reconciling ends with that error', async ({ failing, held }) => {
    const error = new Error('ENOSPC');
    const { run, log } = await reconcile(
      [SHIPPED, pendingEntry({ identifier: 'trial-ending', name: 'trial ending' })],
      service(held),
      { [failing]: error },
    );
    await expect(run).rejects.toBe(error);
    expect(log.at(-1)).toMatchObject({ do: failing, identifier: 'shipped' });
    expect(gets(log)).not.toContain('trial-ending');
  });

  it('settles entries in identifier order and reports each in its list', async () => {
    const pending = [
      pendingEntry({ identifier: 'c-lookup-fails', name: 'c-lookup-fails' }),
      pendingEntry({ identifier: 'a-recovered', name: 'a-recovered' }),
      pendingEntry({ identifier: 'b-not-created', name: 'b-not-created' }),
    ];
    const { run, log } = await reconcile(
      pending,
      service({
        'a-recovered': workflow('a-recovered', ID),
        'c-lookup-fails': remoteError('server', 'down'),
      }),
    );
    const report = await run;
    expect(report).toEqual({
      recovered: [{ identifier: 'a-recovered', id: ID, foundAs: 'a-recovered' }],
      cleared: [{ identifier: 'b-not-created', reason: NOT_REACHED }],
      unresolved: [
        { identifier: 'c-lookup-fails', message: expect.stringContaining('(GET /v1/workflows/x: down)') },
      ],
    });
    expect(
      log.flatMap((s) => (s.do === 'emit' && s.event.type === 'workflow' ? [s.event.identifier] : [])),
    ).toEqual([
      'a-recovered',
      'a-recovered',
      'b-not-created',
      'b-not-created',
      'c-lookup-fails',
      'c-lookup-fails',
    ]);
    expect(gets(log)).toEqual(['a-recovered', 'b-not-created', 'c-lookup-fails']);
  });

  it('an empty journal: the phase is announced with total 0 and nothing is asked', async () => {
    const { run, log } = await reconcile([], service({}));
    expect(await run).toEqual({ recovered: [], cleared: [], unresolved: [] });
    expect(log).toEqual([{ do: 'emit', event: { type: 'phase', phase: 'reconcile', total: 0 } }]);
  });
});

describe('reconcilePending: defaults and progress', () => {
  it('without a clock, records the time of reconciling; without a listener, still settles', async () => {
    const w = world({
      pending: { shipped: SHIPPED },
      get: service({ shipped: workflow('Order_Shipped now', ID) }),
    });
    const before = Date.now();
    const report = await reconcilePending({ client: w.client, store: w.store });
    const after = Date.now();
    expect(report.recovered).toHaveLength(1);
    const [step] = w.log.filter((s) => s.do === 'recordWorkflow');
    const recordedAt = step?.do === 'recordWorkflow' ? Date.parse(step.entry.recordedAt) : Number.NaN;
    expect(recordedAt).toBeGreaterThanOrEqual(before);
    expect(recordedAt).toBeLessThanOrEqual(after);
  });

  it('a listener that throws does not stop reconciling', async () => {
    const w = world({ pending: { shipped: SHIPPED }, get: service({}) });
    const report = await reconcilePending({
      client: w.client,
      store: w.store,
      onEvent: () => {
        throw new Error('display broke');
      },
    });
    expect(report.cleared).toEqual([{ identifier: 'shipped', reason: NOT_REACHED }]);
  });

  it("the client's retries of a lookup under a derived identifier are shown against the journaled workflow", async () => {
    const events: ApplyEvent[] = [];
    const toProgress = clientEventsForProgress((event) => events.push(event));
    const w = world({
      pending: { shipped: SHIPPED },
      get: async (key) => {
        toProgress({ type: 'retry', method: 'GET', path: `/v1/workflows/${key}`, attempt: 2, reason: '503' });
        return undefined;
      },
    });
    await reconcilePending({ client: w.client, store: w.store });
    expect(events.map((e) => (e.type === 'workflow' ? e.identifier : e.type))).toEqual([
      'shipped',
      'shipped',
      'shipped',
    ]);
  });
});
