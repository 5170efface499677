import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { type ContractFake, startContractFake } from '../../helpers/contract-fake/index.js';
import { Driver, differences, type ServiceUnderTest } from './driver.js';
import { runEdgeScenario } from './edge-scenario.js';
import { runScenario } from './scenario.js';

/**
 * The emulator against an independent fake written from the contract: the same request sequence on both, every
 * status and (normalised) body compared. A disagreement is settled from the contract, then the wrong side fixed.
 */

const DEV_KEY = 'wfs_dev_differential_key_0001';
const PROD_KEY = 'wfs_prod_differential_key_0001';

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => s.close()));
});

type Scenario = (driver: Driver) => Promise<void>;

async function onEmulator(scenario: Scenario): Promise<Driver> {
  const emulator: RunningEmulator = await startEmulator({
    apiKey: DEV_KEY,
    productionKeys: [PROD_KEY],
    notificationGroups: [{ name: 'Marketing' }],
  });
  closing.push(emulator);
  const service: ServiceUnderTest = {
    url: emulator.url,
    devKey: DEV_KEY,
    prodKey: PROD_KEY,
    groupId: emulator.notificationGroupId,
  };
  const driver = new Driver(service);
  await scenario(driver);
  return driver;
}

async function onFake(scenario: Scenario): Promise<Driver> {
  const fake: ContractFake = await startContractFake({
    devKey: DEV_KEY,
    prodKey: PROD_KEY,
    groups: ['Marketing'],
  });
  closing.push(fake);
  const driver = new Driver({ url: fake.url, devKey: DEV_KEY, prodKey: PROD_KEY, groupId: fake.groupId });
  await scenario(driver);
  return driver;
}

/** The scenario on both; every untolerated difference of an answer, and the facts of each. */
async function compare(
  scenario: Scenario,
): Promise<{ disagreements: string[]; emulator: Driver; fake: Driver }> {
  const emulator = await onEmulator(scenario);
  const fake = await onFake(scenario);
  const labels = emulator.exchanges.map((e) => e.label);
  expect(fake.exchanges.map((e) => e.label)).toEqual(labels);
  const disagreements = labels.flatMap((label, i) =>
    untolerated(
      label,
      differences(sortTriggerVariables(emulator.exchanges[i]), sortTriggerVariables(fake.exchanges[i])),
    ).map((line) => `${label}: ${line}`),
  );
  return { disagreements, emulator, fake };
}

/**
 * Where the contract leaves the answer open and the two differ, each with the reason it may: wfsync must work with
 * either (`label` limits a tolerance to some steps). Anything not listed here is a disagreement to settle.
 */
const TOLERATED: Array<{ path: RegExp; label?: RegExp; why: string }> = [
  {
    path: /\/__v$/,
    why: 'the contract does not say whether an update moves `__v` (a MongoDB $set does not; updatedAt moves on both)',
  },
  {
    path: /\/data\/(createdAt|updatedAt)$/,
    label: /^me /,
    why: "the environment's timestamps: fields beyond the contract's list are allowed",
  },
  {
    path: /\/triggers\/0\/(subscriberVariables|reservedVariables)\/\d+(\/variables\/\d+)?\/(_id|id)$/,
    why: 'the contract shows subscriber and reserved variables without ids; extra fields are allowed',
  },
  {
    path: /\/template\/_layoutId$/,
    why: "the contract does not say that an email template gets the environment's default layout",
  },
  {
    path: /^\/body\/message(\/\d+)?$/,
    label:
      /^(update: step without template|changes: promoted missing|status: of an absent id|status of a deleted workflow)$/,
    why: 'the contract gives the status, not the message, of these refusals',
  },
  {
    path: /\/triggers\/0\/variables\/\d+$/,
    label: /^(update: kept templates with empty and omitted fields|Production workflows)$/,
    why:
      'the contract does not say what an update extracts trigger variables from when a kept template keeps its ' +
      'text (the request, as the emulator does, or the stored templates, as the fake does); wfsync sends whole bodies',
  },
  { path: /^\/body\/error$/, why: "the error body's `error` field is optional in the contract" },
  {
    path: /\/enabled$/,
    label: /apply/,
    why: 'the contract does not say whether apply answers the changes as they were or as they are now',
  },
];

/**
 * The contract says which variables a trigger gets, not in what order across kinds (strings, arrays, booleans,
 * helper arguments, filter fields): compared as sets, as wfsync compares them.
 */
function sortTriggerVariables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortTriggerVariables);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => {
    if (k !== 'triggers' || !Array.isArray(v)) return [k, sortTriggerVariables(v)];
    const triggers = v.map((t: { variables?: Array<{ name: string }> }) => ({
      ...t,
      variables: t.variables && [...t.variables].sort((x, y) => x.name.localeCompare(y.name)),
    }));
    return [k, triggers];
  });
  return Object.fromEntries(entries);
}

/** Tolerances some difference needed in this run: one never needed is stale and would hide a regression. */
const used = new Set<string>();

function untolerated(label: string, lines: string[]): string[] {
  return lines.filter((line) => {
    const path = line.slice(0, line.indexOf(':'));
    const tolerance = TOLERATED.find((t) => t.path.test(path) && (t.label?.test(label) ?? true));
    if (tolerance !== undefined) used.add(tolerance.why);
    return tolerance === undefined;
  });
}

describe('the emulator and the contract fake answer alike', () => {
  it('every step of a team day', async () => {
    const { disagreements, emulator, fake } = await compare(runScenario);
    expect(disagreements).toEqual([]);
    expect(differences(fake.facts, emulator.facts)).toEqual([]);
  });

  it('the edges of the writing routes and of promotion', async () => {
    const { disagreements, emulator, fake } = await compare(runEdgeScenario);
    expect(disagreements).toEqual([]);
    expect(fake.facts).toEqual({
      'identifiers of the older server': ['ordershipped', 'snakecase-name', ''],
      'a second empty identifier gets a suffix': true,
      'a missing Production group is promoted on the way': true,
      'the copy uses the Production group': true,
      'the copy is active as created': [true, false],
    });
    expect(differences(fake.facts, emulator.facts)).toEqual([]);
  });

  it('every tolerance was needed by the scenarios above (run in this file, in order)', () => {
    expect(TOLERATED.map((t) => t.why).filter((why) => !used.has(why))).toEqual([]);
  });

  it('the fake keeps what the contract states about ids, steps and promotion', async () => {
    const fake = await onFake(runScenario);
    expect(fake.facts).toEqual({
      'a second create is a silent duplicate': true,
      'steps: _id = _templateId = template._id': true,
      'steps: _parentId chains': [true, true, true],
      'list pages hold every workflow once': [
        'Order Shipped',
        'Order Shipped',
        'Password Reset',
        'Weekly Digest',
      ],
      'update: kept templates by _templateId, order from the array': [true, true, true],
      'update: a kept template keeps its type': 'in_app',
      'update: updatedAt moves': true,
      'changes: one pending change per workflow': [
        'Order Shipped',
        'Password Reset',
        'Weekly Digest',
        'the deleted duplicate',
      ],
      'apply: the change comes last': true,
      'promotion: a new _id pointing at Development': true,
      'promotion: steps point at Production templates': [true, true, true],
      'Production holds copies of': ['Order Shipped', 'Password Reset', 'Weekly Digest'],
      'promotion: the same copy overwritten': true,
      'promotion: the same Production templates overwritten': true,
    });
    const answered = (label: string) => fake.exchanges.find((e) => e.label === label);
    expect(answered('update: nothing to update')).toMatchObject({
      status: 400,
      body: { message: 'No properties found for update' },
    });
    expect(answered('delete again')).toMatchObject({
      status: 400,
      body: { message: 'Could not find workflow with id <id>' },
    });
    expect(answered('status: Production key')).toMatchObject({
      status: 401,
      body: { message: 'This action is only allowed in Development environment' },
    });
    expect(answered('changes: count after all')).toEqual({
      label: 'changes: count after all',
      status: 200,
      body: { data: 0 },
    });
  });
});
