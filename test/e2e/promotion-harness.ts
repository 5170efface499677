import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { makeExampleProject, runCli } from './helpers.js';

/**
 * The promotion e2e tests' world (promotion*.test.ts): an emulator with a Production environment, a project of five
 * examples with a `development` target and a `production` target promoted from it, and a forwarding proxy in front of
 * the emulator that notes which key sent each request, so a test can tell what the Production key did (only reads)
 * from the Development key's writes.
 */

export const DEV_KEY = 'wfs_development_key_0123456789abcdef';
export const PROD_KEY = 'wfs_production_key_0123456789abcdef';
export const PROJECT = [
  'comment-mention',
  'invoice-overdue',
  'order-shipped',
  'password-reset',
  'trial-ending',
];
const LEFT_OUT = [
  'appointment-reminder',
  'deployment-failed',
  'monthly-usage-report',
  'weekly-activity-digest',
];

export interface Seen {
  key: 'development' | 'production' | 'other';
  method: string;
  path: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Forwards every request to `target`, noting the key it carried. */
async function keyLog(target: string): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req: IncomingMessage, res) => {
    const auth = req.headers.authorization ?? '';
    const key =
      auth === `ApiKey ${DEV_KEY}` ? 'development' : auth === `ApiKey ${PROD_KEY}` ? 'production' : 'other';
    seen.push({ key, method: req.method ?? '', path: req.url ?? '' });
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * The config of a project with a `development` target (key in DEV_KEY, `groupId` its default and `transactional`
 * group) and a `production` target promoted from it (key in PROD_KEY), both at `url`; `productionAllow` the
 * production target's `allow` list when given (`[create, delete]`).
 */
export function promotedConfig(url: string, groupId: string, productionAllow?: string): string {
  return [
    'workflowsDir: workflows',
    'targets:',
    '  development:',
    `    baseUrl: ${url}`,
    '    apiKeyEnv: DEV_KEY',
    `    notificationGroupId: ${groupId}`,
    `    notificationGroups: { transactional: ${groupId} }`,
    '  production:',
    `    baseUrl: ${url}`,
    '    apiKeyEnv: PROD_KEY',
    '    promoteFrom: development',
    ...(productionAllow === undefined ? [] : [`    allow: ${productionAllow}`]),
    '',
  ].join('\n');
}

export async function setup(options: { productionAllow?: string } = {}) {
  const emulator = await startEmulator({ seed: 7, apiKey: DEV_KEY, productionKeys: [PROD_KEY] });
  closers.push(() => emulator.close());
  const proxy = await keyLog(emulator.url);
  const cwd = makeExampleProject();
  closers.push(async () => rmSync(cwd, { recursive: true, force: true }));
  for (const identifier of LEFT_OUT) rmSync(join(cwd, `workflows/${identifier}.yaml`));
  writeFileSync(
    join(cwd, 'wfsync.config.yaml'),
    promotedConfig(proxy.url, emulator.notificationGroupId, options.productionAllow),
  );
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const before = proxy.seen.length;
    const result = await runCli(args, { cwd, env: { DEV_KEY, PROD_KEY, NO_COLOR: '1', ...env } });
    return { ...result, seen: proxy.seen.slice(before) };
  };
  return { emulator, cwd, run };
}

/** A workflow created straight on the service, outside the project: its change is another team's. */
export async function createOutside(emulator: RunningEmulator, name: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v1/workflows`, {
    method: 'POST',
    headers: { authorization: `ApiKey ${DEV_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      notificationGroupId: emulator.notificationGroupId,
      steps: [{ template: { type: 'in_app', content: 'hello' } }],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { _id: string } }).data._id;
}

export const pendingFor = (emulator: RunningEmulator) =>
  new Set(emulator.pendingChanges().map((c) => c._entityId));
