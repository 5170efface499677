// Frozen copy of src/derive/trigger.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.
/**
 * The trigger the service puts on a workflow it creates: identifier, variables, reserved and subscriber variables.
 * Reads anything (a definition, a request body, a response, garbage) and never throws.
 *
 * Only the top-level `steps` are read: the service extracts nothing from `variants`, so a variable used only in a
 * variant is not on the trigger.
 */
import { scanTemplate } from '../../../../src/derive/handlebars.js';
import { slugifyV1, slugifyV2 } from '../../../../src/derive/slug.js';
import type {
  DerivableWorkflow,
  DerivedTrigger,
  DerivedVariable,
  DeriveOptions,
  ReservedVariables,
  TextSource,
} from '../../../../src/derive/types.js';
import { firstSegment, isSystemVariable } from './names.js';
import { scanTemplateAsServer } from './server-scan.js';

// A Map, not an object literal: a variable named `constructor.x` must not find Object.prototype.constructor.
const RESERVED = new Map<string, ReservedVariables>([
  ['tenant', { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] }],
  ['actor', { type: 'actor', variables: [{ name: 'subscriberId', type: 'String' }] }],
]);

/**
 * The strings the service scans for variables in one step, in its order, with pointers relative to the step:
 * in_app: content, cta.data.url; sms: content; push: content, title; any other type with block content (an email
 * built with the editor): subject, then each block's url and content (the service reads url first); any other type
 * with string content: the content only (so a customHtml email's subject is not scanned). Empty and non-string
 * values are left out: the service skips empty ones, and a non-string is a schema error.
 */
export function textSourcesOfStep(step: unknown): TextSource[] {
  const template = isRecord(step) ? step.template : undefined;
  if (!isRecord(template)) return [];
  const sources: TextSource[] = [];
  const add = (pointer: string, text: unknown): void => {
    if (typeof text === 'string' && text !== '') sources.push({ pointer, text });
  };
  const { type, content } = template;
  if (type === 'in_app') {
    add('/template/content', content);
    const data = isRecord(template.cta) ? template.cta.data : undefined;
    add('/template/cta/data/url', isRecord(data) ? data.url : undefined);
  } else if (type === 'sms') {
    add('/template/content', content);
  } else if (type === 'push') {
    add('/template/content', content);
    add('/template/title', template.title);
  } else if (Array.isArray(content)) {
    add('/template/subject', template.subject);
    content.forEach((block: unknown, k) => {
      if (!isRecord(block)) return;
      add(`/template/content/${k}/url`, block.url);
      add(`/template/content/${k}/content`, block.content);
    });
  } else {
    add('/template/content', content);
  }
  return sources;
}

/** The trigger the service derives from `workflow` (pointers relative to the body; see DeriveOptions). */
export function deriveTrigger(workflow: DerivableWorkflow, options: DeriveOptions = {}): DerivedTrigger {
  const server = options.extraction === 'server';
  const body: Record<string, unknown> = isRecord(workflow) ? workflow : {};
  const name = typeof body.name === 'string' ? body.name : '';
  const steps = Array.isArray(body.steps) ? body.steps : [];
  const errors: DerivedTrigger['errors'] = [];
  const reserved: string[] = []; // reserved prefixes, in order of first use
  const fromTemplates: DerivedVariable[][] = [];
  const fromSettings: DerivedVariable[][] = [];
  steps.forEach((step: unknown, i) => {
    const found: DerivedVariable[] = [];
    for (const source of textSourcesOfStep(step)) {
      const pointer = `/steps/${i}${source.pointer}`;
      const scan = server ? scanTemplateAsServer(source.text) : scanTemplate(source.text);
      if (scan.error) errors.push({ pointer, ...scan.error });
      for (const usage of scan.usages) {
        found.push({ name: usage.name, type: usage.type, pointer });
        const prefix = firstSegment(usage.name);
        if (RESERVED.has(prefix) && !reserved.includes(prefix)) reserved.push(prefix);
      }
    }
    fromTemplates.push(found);
    fromSettings.push(settingsVariables(step, i, server));
  });
  // The service reads every step's templates before any step's filters and metadata.
  const all = server
    ? [...fromTemplates.flat(), ...fromSettings.flat()]
    : fromTemplates.flatMap((found, i) => [...found, ...(fromSettings[i] ?? [])]);
  const reservedOrder = server ? reserved : ['tenant', 'actor'].filter((prefix) => reserved.includes(prefix));
  return {
    identifierV1: slugifyV1(name),
    identifierV2: slugifyV2(name),
    variables: unique(
      all.filter((v) => !isSystemVariable(v.name)),
      server,
    ),
    reservedVariables: reservedOrder.flatMap((prefix) => {
      const entry = RESERVED.get(prefix);
      return entry ? [{ type: entry.type, variables: entry.variables.map((v) => ({ ...v })) }] : [];
    }),
    subscriberVariables: subscriberVariablesOf(steps),
    errors,
  };
}

/** Each payload filter's field, a scheduled delay's delayPath, a digest's digestKey (all String). */
function settingsVariables(step: unknown, i: number, server: boolean): DerivedVariable[] {
  if (!isRecord(step)) return [];
  const found: DerivedVariable[] = [];
  const add = (name: unknown, pointer: string, allowEmpty = false): void => {
    if (typeof name === 'string' && (name !== '' || allowEmpty))
      found.push({ name, type: 'String', pointer });
  };
  if (Array.isArray(step.filters)) {
    step.filters.forEach((filter: unknown, f) => {
      const children = isRecord(filter) ? filter.children : undefined;
      if (!Array.isArray(children)) return;
      children.forEach((child: unknown, c) => {
        // Subscriber, tenant, webhook… filters read other data: only payload fields become trigger variables.
        // The service keeps even an empty field; in handlebars mode an empty name is left out.
        if (isRecord(child) && child.on === 'payload') {
          add(child.field, `/steps/${i}/filters/${f}/children/${c}/field`, server);
        }
      });
    });
  }
  const { metadata, template } = step;
  if (isRecord(metadata)) {
    // The service checks the metadata type, not the step type.
    if (metadata.type === 'scheduled') add(metadata.delayPath, `/steps/${i}/metadata/delayPath`);
    if (isRecord(template) && template.type === 'digest')
      add(metadata.digestKey, `/steps/${i}/metadata/digestKey`);
  }
  return found;
}

/**
 * One entry per name, at its first position. Handlebars mode keeps the first use; server mode keeps the last use's
 * type and pointer, as the service's `new Map(list.map(v => [v.name, v]))` does.
 */
function unique(variables: DerivedVariable[], keepLast: boolean): DerivedVariable[] {
  const byName = new Map<string, DerivedVariable>();
  for (const variable of variables) {
    if (keepLast || !byName.has(variable.name)) byName.set(variable.name, variable);
  }
  return [...byName.values()];
}

/** phone when a step is sms, then email when a step is email, as the service checks them. */
function subscriberVariablesOf(steps: unknown[]): DerivedTrigger['subscriberVariables'] {
  const types = new Set(
    steps.map((step) => (isRecord(step) && isRecord(step.template) ? step.template.type : undefined)),
  );
  const result: DerivedTrigger['subscriberVariables'] = [];
  if (types.has('sms')) result.push({ name: 'phone' });
  if (types.has('email')) result.push({ name: 'email' });
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
