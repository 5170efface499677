import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Api from '../../../src/api/index.js';
import type { ServiceClient } from '../../../src/remote/index.js';
import { useTempProjects } from '../../helpers/temp-project.js';
import { aWorkflowNamed, aWorkflowYaml } from '../../helpers/workflow.js';

/**
 * plan and `sync --dry-run` read the service through readOnlyClient (api/plan.ts): the client their reads and their
 * preflight get refuses to create, by construction. Seen by wrapping the two remote reads they make.
 */

const seen: ServiceClient[] = [];
const REMOTE = '../../../src/remote/index.js';
let api: typeof Api;
// The unit project shares modules between files (isolate: false): the API is imported afresh over the wrapped module,
// and the module registry reset again after.
beforeAll(async () => {
  vi.doMock(REMOTE, wrapRemoteReads);
  vi.resetModules();
  api = await import('../../../src/api/index.js');
});
afterAll(() => {
  vi.doUnmock(REMOTE);
  vi.resetModules();
});

async function wrapRemoteReads(importOriginal: () => Promise<unknown>) {
  const actual = (await importOriginal()) as typeof import('../../../src/remote/index.js');
  return {
    ...actual,
    fetchObservations: (input: Parameters<typeof actual.fetchObservations>[0]) => {
      seen.push(input.client);
      return actual.fetchObservations(input);
    },
    fetchPreflightFacts: (client: ServiceClient, ask: Parameters<typeof actual.fetchPreflightFacts>[1]) => {
      seen.push(client);
      return actual.fetchPreflightFacts(client, ask);
    },
  };
}

const tempProject = useTempProjects('wfsync-read-only-');
afterEach(() => {
  seen.length = 0;
});

/** A project of one workflow, on the built-in local target (the embedded emulator). */
function makeProject(): string {
  return tempProject({ 'workflows/order-shipped.yaml': aWorkflowYaml(aWorkflowNamed('order shipped')) });
}

describe('the client plan and sync --dry-run read through', () => {
  it.each([
    ['plan', (cwd: string) => api.plan({ cwd, env: {} })],
    ['sync --dry-run', (cwd: string) => api.sync({ cwd, env: {}, dryRun: true })],
  ])('%s: every read and the preflight go through a client that refuses to write', async (_, run) => {
    const result = await run(makeProject());
    expect(result.exitCode).toBe(2);
    // The observations and the preflight (the plan creates one workflow, so both are asked).
    expect(seen).toHaveLength(2);
    for (const client of seen) {
      await expect(client.createWorkflow({}, {} as never)).rejects.toThrow(/read-only and must never write/);
      await expect(client.updateWorkflow('0'.repeat(24), {})).rejects.toThrow(
        /read-only and must never write/,
      );
      await expect(client.setWorkflowStatus('0'.repeat(24), false)).rejects.toThrow(/must never write/);
      await expect(client.deleteWorkflow('6650f0c0ffee00000000b001')).rejects.toThrow(
        /read-only and must never write/,
      );
    }
  });
});
