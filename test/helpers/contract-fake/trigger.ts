import Handlebars from 'handlebars';
import slugify from 'slugify';
import { badRequest, isRecord } from './http.js';
import type { Doc } from './state.js';

/**
 * What the service derives from a workflow's name and steps, as the contract states it: the trigger identifier (the
 * older server: `slugify {lower, strict}`) and the trigger's variables, reserved variables and subscriber variables
 * (Handlebars parsed per channel). Written from the contract with the same public libraries the service uses.
 */

export function slugOf(name: string): string {
  return slugify(name, { lower: true, strict: true });
}

interface Variable {
  name: string;
  type: 'String' | 'Array' | 'Boolean';
}

const HELPERS = new Set([
  'equals',
  'titlecase',
  'uppercase',
  'lowercase',
  'pluralize',
  'dateFormat',
  'unique',
  'groupBy',
  'sortBy',
  'numberFormat',
  'i18n',
  'gt',
  'gte',
  'lt',
  'lte',
  'eq',
  'ne',
]);
const DROPPED = ['subscriber', 'step', 'branding', 'tenant', 'preheader', 'actor'];

type Node = { type: string } & Record<string, unknown>;

/** Handlebars' AST → variables, `prefix` being the enclosing `each`/`with` path. */
function scan(nodes: unknown, prefix: string, out: Variable[]): void {
  if (!Array.isArray(nodes)) return;
  for (const node of nodes as Node[]) {
    if (node.type === 'MustacheStatement' || node.type === 'SubExpression') scanCall(node, prefix, out);
    else if (node.type === 'BlockStatement') scanBlock(node, prefix, out);
  }
}

function pathName(expression: unknown, prefix: string): string | undefined {
  if (!isRecord(expression) || expression.type !== 'PathExpression') return undefined;
  const { original, data } = expression as { original: string; data: boolean };
  if (data || original === 'this' || original === '.') return undefined;
  const name = original.replace(/^this\./, '').replace(/^(\.\.\/)+/, '');
  return prefix === '' ? name : `${prefix}.${name}`;
}

function scanArguments(params: unknown, prefix: string, out: Variable[]): void {
  for (const param of (params as unknown[]) ?? []) {
    if (isRecord(param) && param.type === 'SubExpression') scanCall(param as Node, prefix, out);
    const name = pathName(param, prefix);
    if (name !== undefined) out.push({ name, type: 'String' });
  }
}

function scanCall(node: Node, prefix: string, out: Variable[]): void {
  const head = (node.path as { original?: string }).original ?? '';
  if (HELPERS.has(head)) {
    scanArguments(node.params, prefix, out);
    return;
  }
  const name = pathName(node.path, prefix);
  if (name !== undefined) out.push({ name, type: 'String' });
}

function scanBlock(node: Node, prefix: string, out: Variable[]): void {
  const head = (node.path as { original?: string }).original ?? '';
  const [first] = (node.params as unknown[]) ?? [];
  const subject = pathName(first, prefix);
  const body = (node.program as { body?: unknown } | null)?.body;
  const inverse = (node.inverse as { body?: unknown } | null)?.body;
  if (head === 'each' && subject !== undefined) {
    out.push({ name: subject, type: 'Array' });
    scan(body, subject, out);
  } else if ((head === 'if' || head === 'unless') && subject !== undefined) {
    out.push({ name: subject, type: 'Boolean' });
    scan(body, prefix, out);
  } else if (head === 'with' && subject !== undefined) {
    scan(body, subject, out);
  } else {
    if (HELPERS.has(head)) scanArguments(node.params, prefix, out);
    scan(body, prefix, out);
  }
  scan(inverse, prefix, out);
}

function variablesIn(text: unknown, out: Variable[]): void {
  if (typeof text !== 'string' || text === '') return;
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(text);
  } catch {
    throw badRequest('Failed to extract variables');
  }
  scan(program.body, '', out);
}

/** The texts of a step's template the service scans, per channel. */
function scannedTexts(template: Doc): unknown[] {
  const { type, content } = template;
  const ctaUrl = isRecord(template.cta) && isRecord(template.cta.data) ? template.cta.data.url : undefined;
  if (type === 'in_app') return [content, ctaUrl];
  if (type === 'push') return [content, template.title];
  if (type === 'email' && Array.isArray(content))
    return [
      template.subject,
      ...content.flatMap((block) => (isRecord(block) ? [block.content, block.url] : [])),
    ];
  return [content];
}

/** The trigger a workflow with these steps gets (`_id`s are added by the caller). */
export function deriveTrigger(identifier: string, steps: Doc[]): Doc {
  const found: Variable[] = [];
  const templateOf = (step: Doc): Doc => (isRecord(step.template) ? step.template : {});
  for (const step of steps) for (const text of scannedTexts(templateOf(step))) variablesIn(text, found);
  // Then what the steps name outside their texts: payload filter fields, delay paths, digest keys.
  for (const step of steps) {
    for (const filter of Array.isArray(step.filters) ? step.filters : []) {
      for (const part of isRecord(filter) && Array.isArray(filter.children) ? filter.children : []) {
        if (isRecord(part) && part.on === 'payload' && typeof part.field === 'string')
          found.push({ name: part.field, type: 'String' });
      }
    }
    const { type } = templateOf(step);
    const metadata = isRecord(step.metadata) ? step.metadata : {};
    if (type === 'delay' && metadata.type === 'scheduled' && typeof metadata.delayPath === 'string')
      found.push({ name: metadata.delayPath, type: 'String' });
    if (type === 'digest' && typeof metadata.digestKey === 'string' && metadata.digestKey !== '')
      found.push({ name: metadata.digestKey, type: 'String' });
  }
  const seen = new Set<string>();
  const variables = found.filter((v) => {
    if (DROPPED.some((p) => v.name.startsWith(p)) || seen.has(v.name)) return false;
    seen.add(v.name);
    return true;
  });
  const uses = (root: string) => found.some((v) => v.name.startsWith(`${root}.`));
  const types = new Set(steps.map((s) => (isRecord(s.template) ? s.template.type : undefined)));
  return {
    type: 'event',
    identifier,
    variables,
    reservedVariables: [
      ...(uses('tenant') ? [{ type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] }] : []),
      ...(uses('actor') ? [{ type: 'actor', variables: [{ name: 'subscriberId', type: 'String' }] }] : []),
    ],
    subscriberVariables: [
      ...(types.has('sms') ? [{ name: 'phone' }] : []),
      ...(types.has('email') ? [{ name: 'email' }] : []),
    ],
  };
}
