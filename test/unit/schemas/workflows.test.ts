// workflows/ is the example set users copy from and CI dogfoods: every file must be valid, say exactly what the
// service will derive, and together they must show every feature the docs point at (docs/getting-started.md,
// docs/reference/definition-format.md).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import type { LoadedDefinition } from '../../../src/definitions/types.js';
import { slugifyV1, slugifyV2 } from '../../../src/derive/slug.js';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { validateDefinitionSchema } from '../../../src/validate/schema.js';
import { validation } from '../../helpers/rules.js';

const DIR = new URL('../../../workflows/', import.meta.url);
const FILES = readdirSync(DIR)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();

function load(name: string): LoadedDefinition {
  const result = parseDefinition(`workflows/${name}`, readFileSync(new URL(name, DIR)));
  expect(result.diagnostics).toEqual([]);
  return result.definition!;
}

const loaded = FILES.map((name) => [name, load(name)] as const);
const workflows = loaded.map(([, definition]) => definition.value as WorkflowDefinition);

test('there is a realistic set of examples', () => {
  expect(FILES.length).toBeGreaterThanOrEqual(8);
});

describe.each(loaded)('workflows/%s', (name, definition) => {
  const workflow = definition.value as WorkflowDefinition;

  test('starts with the yaml-language-server modeline', () => {
    expect(definition.text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    );
  });

  test('is valid against the schema', () => {
    expect(validateDefinitionSchema(definition)).toEqual([]);
  });

  test('its name slugs the same on both server generations, to the declared identifier and the file name', () => {
    const identifier = workflow.triggers[0].identifier;
    expect(slugifyV1(workflow.name)).toBe(identifier);
    expect(slugifyV2(workflow.name)).toBe(identifier);
    expect(name).toBe(`${identifier}.yaml`);
  });

  test('declares the trigger variables exactly as the service derives them', () => {
    const derived = deriveTrigger(workflow);
    expect(derived.errors).toEqual([]);
    expect(workflow.triggers[0].variables).toEqual(
      derived.variables.map(({ name, type }) => ({ name, type })),
    );
    expect(workflow.triggers[0].subscriberVariables ?? []).toEqual(derived.subscriberVariables);
  });
});

test('the whole set passes every rule without a warning (given the groups a config would define)', () => {
  const diagnostics = validation({
    definitions: loaded.map(([, definition]) => definition),
    options: { notificationGroups: ['transactional'] },
  });
  expect(diagnostics).toEqual([]);
});

describe('the set shows every feature', () => {
  const steps = workflows.flatMap((w) => w.steps);
  const ofType = (type: string) => steps.filter((s) => s.template.type === type);
  const children = steps.flatMap((s) => s.filters ?? []).flatMap((f) => f.children);

  test('channels: chat with variables, customHtml email with subject, in_app CTA with a variable, sms, push title', () => {
    expect(
      ofType('chat').some((s) => typeof s.template.content === 'string' && s.template.content.includes('{{')),
    ).toBe(true);
    expect(ofType('email').some((s) => s.template.contentType === 'customHtml' && s.template.subject)).toBe(
      true,
    );
    expect(ofType('email').some((s) => Array.isArray(s.template.content))).toBe(true);
    expect(
      ofType('in_app').some(
        (s) => s.template.cta?.type === 'redirect' && s.template.cta.data?.url?.includes('{{'),
      ),
    ).toBe(true);
    expect(ofType('sms').length).toBeGreaterThan(0);
    expect(ofType('push').some((s) => s.template.title)).toBe(true);
  });

  test('actions: backoff digest, timed digests with week and month days, regular and scheduled delays', () => {
    const digests = ofType('digest').map((s) => s.metadata ?? {});
    expect(digests.some((m) => m.type === 'backoff' && m.backoff === true && m.backoffUnit)).toBe(true);
    expect(digests.some((m) => m.type === 'timed' && (m.timed?.weekDays?.length ?? 0) > 0)).toBe(true);
    expect(digests.some((m) => m.type === 'timed' && (m.timed?.monthDays?.length ?? 0) > 0)).toBe(true);
    const delays = ofType('delay').map((s) => s.metadata ?? {});
    expect(delays.some((m) => m.type === 'regular' && m.amount !== undefined && m.unit)).toBe(true);
    expect(delays.some((m) => m.type === 'scheduled' && m.delayPath)).toBe(true);
  });

  test('filters, preferences, tags, critical and a group reference', () => {
    expect(children.some((c) => c.on === 'subscriber' && c.operator === 'LARGER')).toBe(true);
    expect(children.some((c) => c.on === 'payload' && c.operator === 'EQUAL')).toBe(true);
    expect(workflows.some((w) => w.preferenceSettings !== undefined)).toBe(true);
    expect(workflows.every((w) => (w.tags?.length ?? 0) > 0)).toBe(true);
    expect(workflows.some((w) => w.critical === true)).toBe(true);
    expect(workflows.filter((w) => w.notificationGroupId === 'group:transactional')).toHaveLength(1);
    expect(workflows.filter((w) => w.notificationGroupId === undefined).length).toBeGreaterThan(
      workflows.length / 2,
    );
  });
});
