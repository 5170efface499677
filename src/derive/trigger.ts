/**
 * The trigger the service puts on a workflow it creates: identifier, variables, reserved and subscriber variables.
 * Reads anything (a definition, a request body, a response, garbage) and never throws.
 *
 * Only the top-level `steps` are read: the service extracts nothing from `variants`, so a variable used only in a
 * variant is not on the trigger.
 */

import { isRecord } from '../json.js';
import { scanTemplate } from './handlebars.js';
import { firstSegmentIs, isSystemVariable } from './names.js';
import { scanTemplateAsServer } from './server-scan.js';
import { slugifyV1, slugifyV2 } from './slug.js';
import type {
  DerivableWorkflow,
  DerivedTrigger,
  DerivedVariable,
  DeriveOptions,
  ReservedVariables,
  TextSource,
} from './types.js';

// A Map, not an object literal: a variable named `constructor.x` must not find Object.prototype.constructor.
const RESERVED = new Map<string, ReservedVariables>([
  ['tenant', { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] }],
  ['actor', { type: 'actor', variables: [{ name: 'subscriberId', type: 'String' }] }],
]);
const RESERVED_PREFIXES = [...RESERVED.keys()];

/**
 * The strings the service scans for variables in one step, in its order, with pointers relative to the step (after
 * `prefix`): in_app: content, cta.data.url; sms: content; push: content, title; any other type with block content
 * (an email built with the editor): subject, then each block's url and content (the service reads url first); any
 * other type with string content: the content only (so a customHtml email's subject is not scanned). Empty and
 * non-string values are left out: the service skips empty ones, and a non-string is a schema error.
 */
export function textSourcesOfStep(step: unknown, prefix = ''): TextSource[] {
  const out: TextSource[] = [];
  const template = isRecord(step) ? step.template : undefined;
  if (!isRecord(template)) return out;
  const { type, content } = template;
  if (type === 'in_app') {
    addSource(out, `${prefix}/template/content`, content);
    const data = isRecord(template.cta) ? template.cta.data : undefined;
    addSource(out, `${prefix}/template/cta/data/url`, isRecord(data) ? data.url : undefined);
  } else if (type === 'sms') {
    addSource(out, `${prefix}/template/content`, content);
  } else if (type === 'push') {
    addSource(out, `${prefix}/template/content`, content);
    addSource(out, `${prefix}/template/title`, template.title);
  } else if (Array.isArray(content)) {
    addSource(out, `${prefix}/template/subject`, template.subject);
    content.forEach((block: unknown, k) => {
      if (!isRecord(block)) return;
      addSource(out, `${prefix}/template/content/${k}/url`, block.url);
      addSource(out, `${prefix}/template/content/${k}/content`, block.content);
    });
  } else {
    addSource(out, `${prefix}/template/content`, content);
  }
  return out;
}

function addSource(out: TextSource[], pointer: string, text: unknown): void {
  if (typeof text === 'string' && text !== '') out.push({ pointer, text });
}

/** The trigger the service derives from `workflow` (pointers relative to the body; see DeriveOptions). */
export function deriveTrigger(workflow: DerivableWorkflow, options: DeriveOptions = {}): DerivedTrigger {
  const server = options.extraction === 'server';
  const body: Record<string, unknown> = isRecord(workflow) ? workflow : {};
  const name = typeof body.name === 'string' ? body.name : '';
  const steps: unknown[] = Array.isArray(body.steps) ? body.steps : [];
  const errors: DerivedTrigger['errors'] = [];
  const reserved: string[] = []; // reserved prefixes, in order of first use
  // System variables never reach the trigger: they are left out as they are found.
  const found: DerivedVariable[] = [];
  // The service reads every step's templates before any step's filters and metadata; handlebars mode goes step by
  // step.
  const settings: DerivedVariable[] = server ? [] : found;
  steps.forEach((step, i) => {
    for (const { pointer, text } of textSourcesOfStep(step, `/steps/${i}`)) {
      const scan = server ? scanTemplateAsServer(text) : scanTemplate(text);
      if (scan.error) errors.push({ pointer, ...scan.error });
      for (const usage of scan.usages) {
        if (!isSystemVariable(usage.name)) found.push({ name: usage.name, type: usage.type, pointer });
        const prefix = reservedPrefixOf(usage.name);
        if (prefix !== undefined && !reserved.includes(prefix)) reserved.push(prefix);
      }
    }
    addSettingsVariables(step, { index: i, server, out: settings });
  });
  if (settings !== found) for (const variable of settings) found.push(variable);
  const reservedOrder = server ? reserved : ['tenant', 'actor'].filter((prefix) => reserved.includes(prefix));
  return {
    identifierV1: slugifyV1(name),
    identifierV2: slugifyV2(name),
    variables: unique(found, server),
    reservedVariables: reservedOrder.flatMap((prefix) => {
      const entry = RESERVED.get(prefix);
      return entry ? [{ type: entry.type, variables: entry.variables.map((v) => ({ ...v })) }] : [];
    }),
    subscriberVariables: subscriberVariablesOf(steps),
    errors,
  };
}

/**
 * `tenant` for `tenant.name`: the reserved prefix a variable's first segment names, if any. A loop, not a `find`
 * with a closure: this runs for every variable of every template, twice per file.
 */
function reservedPrefixOf(name: string): string | undefined {
  for (const prefix of RESERVED_PREFIXES) if (firstSegmentIs(name, prefix)) return prefix;
  return undefined;
}

/**
 * Each payload filter's field, a scheduled delay's delayPath, a digest's digestKey (all String), into `out`
 * (system variables left out).
 */
function addSettingsVariables(
  step: unknown,
  { index, server, out }: { index: number; server: boolean; out: DerivedVariable[] },
): void {
  if (!isRecord(step)) return;
  const add = (name: unknown, pointer: string, allowEmpty = false): void => {
    if (typeof name === 'string' && (name !== '' || allowEmpty) && !isSystemVariable(name))
      out.push({ name, type: 'String', pointer });
  };
  if (Array.isArray(step.filters)) {
    step.filters.forEach((filter: unknown, f) => {
      const children = isRecord(filter) ? filter.children : undefined;
      if (!Array.isArray(children)) return;
      children.forEach((child: unknown, c) => {
        // Subscriber, tenant, webhook… filters read other data: only payload fields become trigger variables.
        // The service keeps even an empty field; in handlebars mode an empty name is left out.
        if (isRecord(child) && child.on === 'payload') {
          add(child.field, `/steps/${index}/filters/${f}/children/${c}/field`, server);
        }
      });
    });
  }
  const { metadata, template } = step;
  if (isRecord(metadata)) {
    // The service checks the metadata type, not the step type.
    if (metadata.type === 'scheduled') add(metadata.delayPath, `/steps/${index}/metadata/delayPath`);
    if (isRecord(template) && template.type === 'digest')
      add(metadata.digestKey, `/steps/${index}/metadata/digestKey`);
  }
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
export function subscriberVariablesOf(steps: unknown[]): DerivedTrigger['subscriberVariables'] {
  // One pass and no intermediate arrays: this runs twice per file.
  let sms = false;
  let email = false;
  for (const step of steps) {
    const type = isRecord(step) && isRecord(step.template) ? step.template.type : undefined;
    if (type === 'sms') sms = true;
    else if (type === 'email') email = true;
  }
  const result: DerivedTrigger['subscriberVariables'] = [];
  if (sms) result.push({ name: 'phone' });
  if (email) result.push({ name: 'email' });
  return result;
}
