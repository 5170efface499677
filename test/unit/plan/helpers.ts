import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import { buildWorkflow, type EnvironmentIdentity } from '../../../src/emulator/build-workflow.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import type { CreateRequest } from '../../../src/emulator/validate-request.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { canonicalJson } from '../../../src/json.js';
import { buildCreateBody, type TargetGroups } from '../../../src/plan/create-body.js';
import type { CreateWorkflowBody, DesiredWorkflow } from '../../../src/plan/types.js';

export const GROUP_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
export const OTHER_GROUP_ID = 'bbbbbbbbbbbbbbbbbbbbbbbb';
export const GROUPS: TargetGroups = { defaultId: GROUP_ID, named: { transactional: OTHER_GROUP_ID } };

export const WORKFLOWS_DIR = path.resolve(import.meta.dirname, '../../../workflows');

/** Every example definition, parsed the way wfsync reads it. */
export function exampleDefinitions(): Array<{ file: string; definition: WorkflowDefinition }> {
  return readdirSync(WORKFLOWS_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const file = `workflows/${name}`;
      return { file, definition: parseFile(file, readFileSync(path.join(WORKFLOWS_DIR, name))) };
    });
}

export function parseFile(file: string, bytes: Uint8Array | string): WorkflowDefinition {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const parsed = parseDefinition(file, data);
  if (!parsed.definition) throw new Error(`${file} does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  return parsed.definition.value as WorkflowDefinition;
}

/** A small valid definition: one in-app step; `overrides` replace top-level fields. */
export { aWorkflow as definition } from '../../helpers/workflow.js';

export function bodyOf(def: WorkflowDefinition, groups: TargetGroups = GROUPS): CreateWorkflowBody {
  const result = buildCreateBody(def, groups);
  if ('problem' in result) throw new Error(result.problem);
  return result.body;
}

/** What the I/O layer builds before planning (the hash as sha256 of the canonical body). */
export function desiredOf(
  def: WorkflowDefinition,
  options: { file?: string; groups?: TargetGroups } = {},
): DesiredWorkflow {
  const body = bodyOf(def, options.groups);
  return {
    identifier: def.triggers[0].identifier,
    file: options.file ?? `workflows/${def.triggers[0].identifier}.yaml`,
    definition: def,
    body,
    hash: `sha256:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`,
  };
}

const IDENTITY: EnvironmentIdentity = {
  environmentId: 'e00000000000000000000001',
  organizationId: 'e00000000000000000000002',
  creatorId: 'e00000000000000000000003',
  notificationGroupId: GROUP_ID,
  layoutId: 'e00000000000000000000004',
};

/**
 * The workflow the service stores for `body`, as GET returns it, built by the emulator's own (pure) builder with
 * fixed ids and clock: the unit-level stand-in for a POST then a GET.
 */
export function storedFor(body: CreateWorkflowBody | Record<string, unknown>): WorkflowResponse {
  let next = 0x100;
  const newId = () => (next++).toString(16).padStart(24, '0');
  const derived = deriveTrigger(body, { extraction: 'server' });
  const stored = buildWorkflow(
    body as unknown as CreateRequest,
    { ...derived, identifier: derived.identifierV1 },
    { newId, now: Date.UTC(2024, 9, 1), identity: IDENTITY },
  );
  return JSON.parse(JSON.stringify(stored)) as WorkflowResponse;
}

/** A deep copy to mutate in a test. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
});

/** An emulator on 127.0.0.1:0, closed after the test. */
export async function emulator(): Promise<RunningEmulator> {
  const started = await startEmulator({ seed: 11 });
  running.push(started);
  return started;
}

/** POST then GET by identifier, over real HTTP: what sync creates and plan then reads back. */
export async function createAndFetch(
  emu: RunningEmulator,
  body: CreateWorkflowBody,
): Promise<WorkflowResponse> {
  const headers = { authorization: `ApiKey ${emu.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${emu.url}/v1/workflows`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const createdText = await created.text();
  if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${createdText}`);
  const { data } = JSON.parse(createdText) as { data: WorkflowResponse };
  const fetched = await fetch(`${emu.url}/v1/workflows/${data._id}`, { headers });
  if (fetched.status !== 200) throw new Error(`GET answered ${fetched.status}`);
  return ((await fetched.json()) as { data: WorkflowResponse }).data;
}
