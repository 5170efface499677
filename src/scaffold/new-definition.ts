/**
 * The definition `wfsync new NAME` writes: one step of the chosen channel with example content that uses one
 * payload variable, and the trigger exactly as the service will derive it (identifier from the name, variables
 * from the template), so `wfsync validate` passes as soon as the file exists. Pure.
 */
import { Document, isMap, isSeq } from 'yaml';
import { slugifyV1, slugifyV2 } from '../derive/slug.js';
import { deriveTrigger } from '../derive/trigger.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import type { Channel } from './channels.js';

/** The schema's bound on `name`. */
const MAX_NAME_LENGTH = 128;
/** The one payload variable the example content uses. */
const VARIABLE = 'details';

export interface NewDefinitionInput {
  name: string;
  /** One message step per channel, in this order (a channel named twice makes one step). */
  channels: readonly Channel[];
  /** A regular delay step first: wait this long after the trigger. */
  delay?: TimeWindow;
  /** A regular digest step before the messages: collect events for this long, then send one message. */
  digest?: TimeWindow;
}

export interface NewDefinition {
  identifier: string;
  /** `<identifier>.yaml` */
  fileName: string;
  /** The file's text, without a modeline: the caller decides it from where the file lands (withModeline). */
  text: string;
  definition: WorkflowDefinition;
  /** Things the user should know (the two server generations derive different identifiers from the name). */
  warnings: string[];
}

/** The new definition, or why none can be made from this name. */
export function buildNewDefinition(input: NewDefinitionInput): NewDefinition | { problem: string } {
  const name = input.name.trim();
  if (name === '') return { problem: 'the workflow name is empty' };
  // Counted in code points, as the schema (ajv) counts them.
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) {
    return {
      problem: `the workflow name is ${length} characters long; the service accepts at most ${MAX_NAME_LENGTH}`,
    };
  }
  const v1 = slugifyV1(name);
  const v2 = slugifyV2(name);
  if (v1 === '' || v2 === '') {
    return {
      problem: `the service cannot derive a trigger identifier from "${name}": use ASCII letters or digits in the name`,
    };
  }
  const warnings: string[] = [];
  if (v1 !== v2) warnings.push(generationWarning(name, v1, v2));
  const digested = input.digest !== undefined;
  const steps: Step[] = [
    ...(input.delay === undefined ? [] : [timedStep('delay', 'wait', input.delay)]),
    ...(input.digest === undefined ? [] : [timedStep('digest', 'collect events', input.digest)]),
    ...[...new Set(input.channels)].map((channel) => stepFor(channel, name, digested)),
  ];
  // The service derives the trigger from the body: read it the same way, so the declaration cannot drift.
  const derived = deriveTrigger({ name, steps }, { extraction: 'server' });
  const trigger: WorkflowDefinition['triggers'][0] = {
    type: 'event',
    // The older servers' slug, as the local target (the emulator's default generation) derives it.
    identifier: v1,
    variables: derived.variables.map((v) => ({ name: v.name, type: v.type })),
  };
  if (derived.subscriberVariables.length > 0) {
    trigger.subscriberVariables = derived.subscriberVariables.map((v) => ({ name: v.name }));
  }
  const definition = { name, active: true, steps, triggers: [trigger] } as WorkflowDefinition;
  return {
    identifier: v1,
    fileName: `${v1}.yaml`,
    text: renderDefinition(definition),
    definition,
    warnings,
  };
}

/** camelCase or snake_case: the older server drops the word boundary, the newer one keeps it. */
function generationWarning(name: string, v1: string, v2: string): string {
  const suggestion = v2.replace(/-/g, ' ');
  const same = slugifyV1(suggestion) === v2 && slugifyV2(suggestion) === v2;
  return (
    `the service derives \`${v1}\` (older servers) or \`${v2}\` (newer servers) from the name "${name}"; the file ` +
    `declares \`${v1}\`, and \`wfsync validate\` will warn about it.` +
    (same
      ? ` Name it with lower-case words to get the same identifier everywhere: wfsync new "${suggestion}"`
      : '')
  );
}

type Step = WorkflowDefinition['steps'][number];

/** A time span: `amount` `unit`s, as digest and delay metadata say it. */
export interface TimeWindow {
  amount: number;
  unit: 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months';
}

const UNITS: Record<string, TimeWindow['unit']> = {
  s: 'seconds',
  sec: 'seconds',
  m: 'minutes',
  min: 'minutes',
  h: 'hours',
  d: 'days',
  w: 'weeks',
  mo: 'months',
};

/** `30m`, `1h`, `2d`, `1w`, `3mo` (or the unit spelled out: `10 minutes`); undefined when it is not one. */
export function parseTimeWindow(text: string): TimeWindow | undefined {
  const match = /^\s*(\d{1,6})\s*([a-z]+)\s*$/i.exec(text);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const word = match[2]!.toLowerCase();
  const unit = UNITS[word] ?? Object.values(UNITS).find((u) => u === word || u === `${word}s`);
  return amount > 0 && unit !== undefined ? { amount, unit } : undefined;
}

function timedStep(type: 'delay' | 'digest', name: string, window: TimeWindow): Step {
  return { name, template: { type }, metadata: { type: 'regular', ...window } } as Step;
}

/**
 * One step of the channel, its content using {{details}} (after a digest, also the number of events collected); the
 * name is quoted as text, never as Handlebars.
 */
function stepFor(channel: Channel, name: string, digested: boolean): Step {
  const heading = name.replace(/[{}\\]/g, '').trim() || 'Notification';
  const count = digested ? ' ({{step.total_count}} events)' : '';
  const line = `${heading}: {{${VARIABLE}}}${count}`;
  switch (channel) {
    case 'email':
      return {
        name: 'email',
        template: {
          type: 'email',
          contentType: 'customHtml',
          subject: heading,
          content: `<p>Hello,</p>\n<p>{{${VARIABLE}}}${count}</p>\n`,
        },
      };
    case 'push':
      return {
        name: 'push notification',
        template: { type: 'push', title: heading, content: `{{${VARIABLE}}}${count}` },
      };
    case 'in_app':
      return { name: 'in-app message', template: { type: 'in_app', content: line } };
    case 'sms':
      return { name: 'text message', template: { type: 'sms', content: line } };
    case 'chat':
      return { name: 'chat message', template: { type: 'chat', content: line } };
  }
}

/** The file: a note on what to edit, then the definition in block style with one-line variables. */
function renderDefinition(definition: WorkflowDefinition): string {
  const document = new Document(definition, { aliasDuplicateObjects: false });
  const variables = document.getIn(['triggers', 0, 'variables'], true);
  if (isSeq(variables)) {
    for (const item of variables.items) if (isMap(item)) item.flow = true;
  }
  return [
    '# Written by `wfsync new`. Edit the content; when the templates use other {{variables}}, list them in',
    '# triggers[0].variables too (`wfsync validate` says which). The identifier is derived from the name.',
    document.toString({ lineWidth: 0 }),
  ].join('\n');
}
