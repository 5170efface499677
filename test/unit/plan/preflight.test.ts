import { describe, expect, it } from 'vitest';
import type { CheckedDefinition } from '../../../src/check/check-definitions.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { buildPreflight, mayCreate, preflightQuestions } from '../../../src/plan/preflight.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { Plan } from '../../../src/plan/types.js';
import type { PreflightFacts } from '../../../src/remote/index.js';
import { desiredOf, GROUP_ID, GROUPS, OTHER_GROUP_ID, storedFor } from './helpers.js';

/** The pure decision: (plan, definitions, target, facts) → what was checked, and whether sync would be refused. */

const TARGET = { name: 'prod', kind: 'remote' as const, apiKeyEnv: 'PROD_KEY' };
const DEVELOPMENT = { _id: 'e00000000000000000000001', name: 'Development' };
const PRODUCTION = { _id: 'e00000000000000000000002', name: 'Production', _parentId: DEVELOPMENT._id };
const GENERAL = { _id: GROUP_ID, name: 'General' };

/** A definition read from YAML (so it can locate its lines), as check/ hands it over. */
function checked(file: string, yaml: string): CheckedDefinition {
  const parsed = parseDefinition(file, new TextEncoder().encode(yaml));
  const loaded = parsed.definition!;
  const workflow = loaded.value as WorkflowDefinition;
  return { ...loaded, identifier: workflow.triggers[0].identifier, workflow };
}

function yamlOf(name: string, group?: string): string {
  return [
    `name: ${name}`,
    ...(group === undefined ? [] : [`notificationGroupId: ${group}`]),
    'steps:',
    '  - name: inbox',
    '    template: { type: in_app, content: Hello }',
    'triggers:',
    `  - { type: event, identifier: ${name.replace(/ /g, '-')} }`,
    '',
  ].join('\n');
}

/** A plan over `definitions` where the ones named in `existing` are in sync on the service and the rest are creates. */
function planOf(definitions: CheckedDefinition[], existing: string[] = []): Plan {
  const desired = definitions.map((d) => desiredOf(d.workflow, { file: d.file, groups: GROUPS }));
  return buildPlan({
    target: { name: TARGET.name, baseUrl: 'https://api.example.com' },
    desired,
    state: {
      version: 1,
      target: TARGET.name,
      baseUrl: 'https://api.example.com',
      workflows: {},
      pending: {},
    },
    observations: new Map(
      desired.map((d) => [
        d.identifier,
        {
          identifier: d.identifier,
          byIdentifier: existing.includes(d.identifier)
            ? { status: 'found', workflow: storedFor(d.body), via: 'identifier' }
            : { status: 'not-found', via: 'identifier' },
        },
      ]),
    ),
  });
}

function facts(overrides: Partial<PreflightFacts> = {}): PreflightFacts {
  return {
    environment: { status: 'found', value: DEVELOPMENT },
    groups: { status: 'found', value: [GENERAL, { _id: OTHER_GROUP_ID, name: 'transactional' }] },
    ...overrides,
  };
}

const A = checked('workflows/a.yaml', yamlOf('alpha one'));
const B = checked('workflows/b.yaml', yamlOf('beta two', 'group:transactional'));
const C = checked('workflows/c.yaml', yamlOf('gamma three', 'cccccccccccccccccccccccc'));

describe('preflightQuestions', () => {
  it('asks nothing unless the plan creates something; the local target’s groups never', () => {
    expect(preflightQuestions(planOf([A], ['alpha-one']), TARGET)).toEqual({
      environment: false,
      groups: false,
    });
    expect(preflightQuestions(planOf([A]), TARGET)).toEqual({ environment: true, groups: true });
    expect(preflightQuestions(planOf([A]), { ...TARGET, kind: 'local' })).toEqual({
      environment: true,
      groups: false,
    });
  });
});

describe('buildPreflight', () => {
  it('passes a Development key whose workflows to create use existing groups', () => {
    const result = buildPreflight({
      plan: planOf([A, B]),
      definitions: [A, B],
      target: TARGET,
      facts: facts(),
    });
    expect(result.refusal).toBeUndefined();
    expect(result.preflight).toEqual({
      environment: {
        status: 'passed',
        message: 'the API key belongs to environment "Development", which may create workflows',
      },
      notificationGroups: {
        status: 'passed',
        message:
          'every workflow to create uses one of the 2 notification groups in environment "Development"',
      },
    });
  });

  it('refuses a Production key for a creating target, naming the Development key and the promotion step', () => {
    const result = buildPreflight({
      plan: planOf([A, B]),
      definitions: [A, B],
      target: TARGET,
      facts: facts({ environment: { status: 'found', value: PRODUCTION } }),
    });
    expect(result.refusal).toEqual({
      check: 'environment',
      message:
        'the API key in $PROD_KEY belongs to the service\'s "Production" environment (derived from another one), ' +
        'where workflows are view-only: only a Development-environment key may create them, so sync would be ' +
        'refused (401) for the 2 workflows to create (alpha-one, beta-two). Give target "prod" the Development ' +
        "environment's API key and sync there, then, to bring them to this environment, give this key to a target " +
        'whose promoteFrom is "prod" (it only reads); nothing was sent',
    });
    expect(result.preflight.environment.status).toBe('refused');
    // Production's groups are not the ones the definitions were written for: not judged.
    expect(result.preflight.notificationGroups.status).toBe('skipped');
  });

  it('refuses a Production key when the plan only deletes: any write, not only a create, is asked about', () => {
    const stored = storedFor(desiredOf(A.workflow, { file: A.file, groups: GROUPS }).body);
    const plan: Plan = buildPlan({
      target: { name: TARGET.name, baseUrl: 'https://api.example.com' },
      desired: [],
      state: {
        version: 1,
        target: TARGET.name,
        baseUrl: 'https://api.example.com',
        workflows: {
          'alpha-one': {
            id: stored._id,
            hash: 'sha256:a',
            origin: 'created',
            remoteVersion: remoteVersionOf(stored),
            recordedAt: '2030-01-01T00:00:00.000Z',
          },
        },
        pending: {},
      },
      observations: new Map([
        ['alpha-one', { identifier: 'alpha-one', byId: { status: 'found', workflow: stored, via: 'id' } }],
      ]),
      allow: new Set(['create', 'delete']),
    });
    expect(plan.items.map((i) => i.action)).toEqual(['delete']);
    expect(preflightQuestions(plan, TARGET)).toEqual({ environment: true, groups: false });
    const result = buildPreflight({
      plan,
      definitions: [],
      target: TARGET,
      facts: facts({ environment: { status: 'found', value: PRODUCTION } }),
    });
    expect(result.refusal?.check).toBe('environment');
    expect(result.refusal?.message).toContain(
      'only a Development-environment key may write them, so sync would be refused (401) for the 1 workflow to ' +
        'write (delete alpha-one)',
    );
    const allowed = buildPreflight({
      plan,
      definitions: [],
      target: TARGET,
      facts: facts({ environment: { status: 'found', value: DEVELOPMENT } }),
    });
    expect(allowed.refusal).toBeUndefined();
    expect(allowed.preflight.notificationGroups).toEqual({
      status: 'skipped',
      message: 'not asked: nothing to create',
    });
  });

  it('nothing to create: nothing asked, nothing refused, whatever the key', () => {
    const result = buildPreflight({
      plan: planOf([A], ['alpha-one']),
      definitions: [A],
      target: TARGET,
      facts: { environment: { status: 'not-asked' }, groups: { status: 'not-asked' } },
    });
    expect(result).toEqual({
      preflight: {
        environment: { status: 'skipped', message: 'not asked: nothing to create' },
        notificationGroups: { status: 'skipped', message: 'not asked: nothing to create' },
      },
    });
  });

  it('a missing group is an error per workflow to create, at its group field or, for the default, its name', () => {
    const plan = planOf([A, B, C]);
    const result = buildPreflight({
      plan,
      definitions: [A, B, C],
      target: TARGET,
      facts: facts({ groups: { status: 'found', value: [GENERAL] } }),
    });
    expect(result.refusal?.check).toBe('notificationGroups');
    expect(result.refusal?.message).toBe(
      '2 workflows to create use notification groups that environment "Development" does not have; nothing was sent',
    );
    const diagnostics = result.refusal?.check === 'notificationGroups' ? result.refusal.diagnostics : [];
    expect(diagnostics.map((d) => [d.file, d.line, d.column, d.pointer, d.code])).toEqual([
      ['workflows/b.yaml', 2, 22, '/notificationGroupId', 'notification-group-missing'],
      ['workflows/c.yaml', 2, 22, '/notificationGroupId', 'notification-group-missing'],
    ]);
    expect(diagnostics[0]!.message).toBe(
      `notification group "group:transactional" (${OTHER_GROUP_ID}) does not exist in environment "Development": ` +
        'the service would still create the workflow, under a group it does not have; set ' +
        `targets.prod.notificationGroups.transactional in wfsync.config.yaml to one of its ids ("General" ${GROUP_ID})`,
    );
    expect(diagnostics[1]!.message).toMatch(
      /^notification group c{24} does not exist .*; use one of its ids \(/,
    );

    // The target's default group, missing: the finding is on the workflow's name.
    const onlyDefault = buildPreflight({
      plan: planOf([A]),
      definitions: [A],
      target: TARGET,
      facts: facts({ groups: { status: 'found', value: [{ _id: OTHER_GROUP_ID, name: 'other' }] } }),
    });
    const [finding] =
      onlyDefault.refusal?.check === 'notificationGroups' ? onlyDefault.refusal.diagnostics : [];
    expect(finding).toMatchObject({ file: 'workflows/a.yaml', line: 1, column: 1, pointer: '' });
    expect(finding?.message).toContain(`the default notification group of target "prod" (${GROUP_ID})`);
    expect(finding?.message).toContain('set targets.prod.notificationGroupId in wfsync.config.yaml');
  });

  it('the local target: the environment is judged, the groups are not asked (its service resolves them all)', () => {
    const result = buildPreflight({
      plan: planOf([C]),
      definitions: [C],
      target: { ...TARGET, kind: 'local' },
      facts: facts({ groups: { status: 'not-asked' } }),
    });
    expect(result.refusal).toBeUndefined();
    expect(result.preflight.environment.status).toBe('passed');
    expect(result.preflight.notificationGroups).toEqual({
      status: 'skipped',
      message: "not asked: the local target's embedded service resolves every group to its own",
    });
  });

  it('only workflows to create are judged: an existing one in a missing group is not sync’s business', () => {
    const result = buildPreflight({
      plan: planOf([A, C], ['gamma-three']),
      definitions: [A, C],
      target: TARGET,
      facts: facts(),
    });
    expect(result.refusal).toBeUndefined();
  });

  it('what the service could not tell is a note, never a refusal', () => {
    const result = buildPreflight({
      plan: planOf([C]),
      definitions: [C],
      target: TARGET,
      facts: {
        environment: { status: 'unavailable', reason: 'the service does not answer GET /v1/environments/me' },
        groups: { status: 'unavailable', reason: 'GET /v1/notification-groups: 500 Internal Server Error' },
      },
    });
    expect(result.refusal).toBeUndefined();
    expect(result.preflight).toEqual({
      environment: {
        status: 'unavailable',
        message:
          "could not check the API key's environment: the service does not answer GET /v1/environments/me",
      },
      notificationGroups: {
        status: 'unavailable',
        message:
          'could not check the notification groups: GET /v1/notification-groups: 500 Internal Server Error',
      },
    });
    // Groups known, environment not: judged, and worded without the environment's name.
    const groupsOnly = buildPreflight({
      plan: planOf([C]),
      definitions: [C],
      target: TARGET,
      facts: facts({ environment: { status: 'unavailable', reason: 'x' } }),
    });
    expect(groupsOnly.refusal?.message).toBe(
      "1 workflow to create uses a notification group that the API key's environment does not have; nothing was sent",
    );
  });

  it('text from the service is quoted, escaped and cut short', () => {
    const hostile = `Dev\u001b[31m\u009b\u202eelopment${'x'.repeat(100)}`;
    const result = buildPreflight({
      plan: planOf([A]),
      definitions: [A],
      target: TARGET,
      facts: facts({ environment: { status: 'found', value: { ...PRODUCTION, name: hostile } } }),
    });
    const message = result.refusal!.message;
    expect(message).toContain('"Dev\\u001b[31m\\u009b\\u202eelopment');
    for (const raw of ['\u001b', '\u009b', '\u202e']) expect(message).not.toContain(raw);
    expect(message).not.toContain('x'.repeat(60));
  });
});

describe('mayCreate: the service lets only a root environment create', () => {
  it.each([
    [{ _id: 'a', name: 'Development' }, true],
    [{ _id: 'a', name: 'Staging' }, true],
    [{ _id: 'a', name: 'Staging', _parentId: 'b' }, false],
    [{ _id: 'a', name: 'Production', _parentId: 'b' }, false],
    // A service that leaves _parentId out still names Production.
    [{ _id: 'a', name: 'Production' }, false],
  ])('%j → %s', (environment, expected) => {
    expect(mayCreate(environment)).toBe(expected);
  });
});
