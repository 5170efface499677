/**
 * The changes API and the paged workflow list, answered by a hostile service on loopback: ids the client later puts
 * into a path (`POST /v1/changes/{id}/apply`, `GET /v1/workflows/{id}`) are checked on receipt, so an id of `..`,
 * `bulk` or `x/../../y` can never steer a write into another route; a page longer than asked for is refused, so the
 * entries read stay bounded (MAX_PAGES pages of PAGE_LIMIT) whatever the service answers.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src/remote/index.js';
import { PAGE_LIMIT } from '../../../src/remote/paging.js';
import { VirtualClock } from '../../helpers/remote.js';
import { answerJson as json, httpService as service } from './servers.js';

function clientOf(url: string) {
  const clock = new VirtualClock();
  return createClient({
    baseUrl: url,
    apiKey: 'wfs_test_key_0123456789',
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    retries: { maxAttempts: 1 },
  });
}

const GOOD = '65a1b2c3d4e5f60718293a4b';

/** Ids that would leave their path segment, or name another route, once put into a URL. */
const HOSTILE_IDS = [
  '..',
  '.',
  'bulk',
  'x/../../v1/workflows',
  '../../v1/workflows?x=',
  '%2e%2e',
  `${GOOD}\n`,
];

function change(fields: Record<string, unknown>) {
  return { _id: GOOD, _entityId: GOOD, type: 'NotificationTemplate', enabled: false, ...fields };
}

describe('the changes API, answered by a hostile service', () => {
  for (const id of HOSTILE_IDS) {
    for (const field of ['_id', '_entityId']) {
      it(`a change whose ${field} is ${JSON.stringify(id)} fails the listing; nothing is applied`, async () => {
        const api = await service((req, res) => {
          if (req.method === 'GET') return json(res, 200, { data: [change({ [field]: id })], totalCount: 1 });
          return json(res, 201, { data: [] });
        });
        const client = clientOf(api.url);
        try {
          await expect(client.listPendingChanges()).rejects.toThrow(/expected shape/);
        } finally {
          await client.close();
        }
        expect(api.seen.filter((s) => s.method !== 'GET')).toEqual([]);
      });
    }
  }

  it('an applied change answered with a hostile id is refused as well', async () => {
    const api = await service((_req, res) => json(res, 201, { data: [change({ _id: '..' })] }));
    const client = clientOf(api.url);
    try {
      await expect(client.applyChange(GOOD)).rejects.toThrow(/expected shape/);
    } finally {
      await client.close();
    }
  });

  it('the change records keep only what wfsync uses: the dashboard text of templateName, user, change never', async () => {
    const text = '\x1b]8;;https://evil.example\x07x <!-- wfsync-plan --> @org ::error::x';
    const api = await service((_req, res) =>
      json(res, 200, {
        data: [
          change({
            templateName: text,
            user: { firstName: text, lastName: text },
            change: { name: text, nested: { deeper: text } },
            templateId: text,
          }),
        ],
        totalCount: 1,
      }),
    );
    const client = clientOf(api.url);
    try {
      const [read] = await client.listPendingChanges();
      expect(read).toEqual({ _id: GOOD, _entityId: GOOD, type: 'NotificationTemplate', enabled: false });
    } finally {
      await client.close();
    }
  });

  it('an apply path encodes the id it is given, and stays under /v1/changes/', async () => {
    const api = await service((_req, res) => json(res, 201, { data: [change({})] }));
    const client = clientOf(api.url);
    try {
      await client.applyChange(GOOD);
    } finally {
      await client.close();
    }
    expect(api.seen).toEqual([{ method: 'POST', path: `/v1/changes/${GOOD}/apply` }]);
  });
});

describe('the paged workflow list, answered by a hostile service', () => {
  for (const id of HOSTILE_IDS) {
    for (const field of ['_id', '_parentId']) {
      it(`a workflow whose ${field} is ${JSON.stringify(id)} fails the listing`, async () => {
        const api = await service((_req, res) =>
          json(res, 200, { data: [{ _id: GOOD, _parentId: GOOD, [field]: id }], totalCount: 1 }),
        );
        const client = clientOf(api.url);
        try {
          await expect(client.listWorkflows()).rejects.toThrow(/expected shape/);
        } finally {
          await client.close();
        }
      });
    }
  }
});

describe('paging bounded whatever the service answers', () => {
  it('a page longer than the limit asked for is refused: the entries read stay bounded', async () => {
    let pages = 0;
    const api = await service((_req, res) => {
      pages++;
      json(res, 200, { data: Array.from({ length: PAGE_LIMIT * 50 }, () => change({})) });
    });
    const client = clientOf(api.url);
    try {
      await expect(client.listPendingChanges()).rejects.toThrow(
        `answered ${PAGE_LIMIT * 50} changes to a page of at most ${PAGE_LIMIT}`,
      );
    } finally {
      await client.close();
    }
    expect(pages).toBe(1);
  });
});

describe('answers nested past the limit', () => {
  const deep = (depth: number) => `${'{"change":'.repeat(depth)}null${'}'.repeat(depth)}`;
  for (const [what, list] of [
    ['a changes page', (c: ReturnType<typeof createClient>) => c.listPendingChanges()],
    ['a workflows page', (c: ReturnType<typeof createClient>) => c.listWorkflows()],
  ] as const) {
    it(`${what} nested 100,000 levels deep fails by the limit, never the stack`, async () => {
      const api = await service((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(`{"data":[${deep(100_000)}],"totalCount":1}`);
      });
      const client = clientOf(api.url);
      try {
        const failed = await list(client).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(String(failed)).toContain('nested deeper than 128 levels');
        expect(String(failed)).not.toMatch(/Maximum call stack|RangeError/);
      } finally {
        await client.close();
      }
    });
  }
});
