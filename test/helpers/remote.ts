import { MockAgent } from 'undici';
import type { ClientEvent, ClientOptions, ServiceClient } from '../../src/remote/index.js';

export const API_KEY = 'wfs_test_0123456789abcdef0123456789abcdef';
export const ORIGIN = 'https://api.example.test';

/** A workflow as the service returns it, valid against schemas/workflow-response.schema.json. */
export function workflowResponse(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const name = typeof overrides.name === 'string' ? overrides.name : 'Order Shipped';
  return {
    _id: '65a1b2c3d4e5f60718293a4b',
    id: '65a1b2c3d4e5f60718293a4b',
    name,
    active: false,
    draft: true,
    critical: false,
    tags: [],
    steps: [],
    triggers: [
      {
        type: 'event',
        identifier: 'order-shipped',
        variables: [],
        reservedVariables: [],
        subscriberVariables: [],
      },
    ],
    _notificationGroupId: '65a1b2c3d4e5f60718293a00',
    createdAt: '2024-10-01T12:00:00.000Z',
    updatedAt: '2024-10-01T12:00:00.000Z',
    __v: 0,
    ...overrides,
  };
}

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function envelope(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ data: workflowResponse(overrides) });
}

export function createBody(name = 'Order Shipped'): Record<string, unknown> {
  return { name, notificationGroupId: '65a1b2c3d4e5f60718293a00', steps: [] };
}

/**
 * Virtual time: `sleep` parks the caller until the clock reaches its wake-up time, and the clock jumps to the
 * earliest sleeper once everything else has run (setImmediate), so concurrent callers interleave as they would
 * in real time, without waiting. Records every delay asked for.
 */
export class VirtualClock {
  time = 1_700_000_000_000;
  readonly delays: number[] = [];
  #sleepers: Array<{ at: number; wake: () => void; fail: (error: unknown) => void }> = [];
  #pumping = false;

  now = (): number => this.time;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      this.delays.push(ms);
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper = { at: this.time + ms, wake: resolve, fail: reject };
      signal?.addEventListener('abort', () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal.reason);
      });
      this.#sleepers.push(sleeper);
      this.#schedule();
    });

  #schedule(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    setImmediate(() => {
      this.#pumping = false;
      if (this.#sleepers.length === 0) return;
      const next = Math.min(...this.#sleepers.map((s) => s.at));
      this.time = Math.max(this.time, next);
      const due = this.#sleepers.filter((s) => s.at <= this.time);
      this.#sleepers = this.#sleepers.filter((s) => s.at > this.time);
      for (const s of due) s.wake();
      if (this.#sleepers.length > 0) this.#schedule();
    });
  }
}

export function recordEvents(): { events: ClientEvent[]; onEvent: (event: ClientEvent) => void } {
  const events: ClientEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

/** Client options against a MockAgent that refuses real network access. */
export function mockOptions(agent: MockAgent, extra: Partial<ClientOptions> = {}): ClientOptions {
  const clock = new VirtualClock();
  return {
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    apiKeyEnv: 'NOVU_API_KEY',
    dispatcher: agent,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...extra,
  };
}

export function newMockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

/** Everything a failing run could leak the key through. */
export function expectNoKey(texts: Iterable<unknown>, key = API_KEY): void {
  for (const text of texts) {
    const serialized = typeof text === 'string' ? text : JSON.stringify(text);
    if (serialized?.includes(key)) throw new Error(`the API key leaked into: ${serialized.slice(0, 200)}`);
  }
}

/**
 * A ServiceClient that answers only with `parts`: every other route throws (`<name>: <route> not expected`), so a
 * test fails on any request it did not plan for. `close` does nothing unless given.
 */
export function stubClient(name: string, parts: Partial<ServiceClient>): ServiceClient {
  const refuse = (route: string) => async () => {
    throw new Error(`${name}: ${route} not expected`);
  };
  return {
    createWorkflow: refuse('createWorkflow'),
    updateWorkflow: refuse('updateWorkflow'),
    setWorkflowStatus: refuse('setWorkflowStatus'),
    deleteWorkflow: refuse('deleteWorkflow'),
    getWorkflow: refuse('getWorkflow'),
    getCurrentEnvironment: refuse('getCurrentEnvironment'),
    listNotificationGroups: refuse('listNotificationGroups'),
    listWorkflows: refuse('listWorkflows'),
    listPendingChanges: refuse('listPendingChanges'),
    countPendingChanges: refuse('countPendingChanges'),
    applyChange: refuse('applyChange'),
    applyChanges: refuse('applyChanges'),
    close: async () => {},
    ...parts,
  };
}
