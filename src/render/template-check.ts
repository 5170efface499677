/**
 * What can be told about a template before it runs: helpers the service does not have, helpers given the wrong
 * number of arguments, date patterns date-fns refuses, paths a comparison block cannot see, and values that render
 * empty with the given context. Reads the AST derive parses (no Handlebars runtime), so validate can afford it.
 */
import { scanTemplate } from '../derive/handlebars.js';
import { isSystemVariable } from '../derive/names.js';
import { parseTemplate } from '../derive/parse-template.js';
import { HANDLEBARS_HELPERS, SERVICE_HELPERS } from '../derive/service-helpers.js';
import type { HbsNode, HbsProgram } from '../derive/types.js';
import { nextMustache } from './mustaches.js';
import { checkCall, helperName, isCall, type Walk } from './template-calls.js';
import type { RenderFinding } from './types.js';

const COMPARISONS = new Set(['gt', 'gte', 'lt', 'lte', 'eq', 'ne']);

// A mustache that can call no helper: `{{path}}`, `{{{path}}}`, `{{&path}}`, `{{#each path}}` (each/if/unless/with),
// `{{else}}`, `{{/name}}`. Anything else (arguments, sub-expressions, partials, comments…) takes the full walk.
const PLAIN =
  /^(?:&\s*)?([^\s()=!>#^/{}~"']+)$|^[#^]\s*(?:each|if|unless|with)\s+[^\s()=~"']+$|^\/\s*\S+$|^else$/;

/** Whether `source` may call a helper (so the AST must be walked); false only when every mustache is plain. */
function mayCallHelpers(source: string): boolean {
  for (let match = nextMustache(source, 0); match !== undefined; match = nextMustache(source, match.end)) {
    const { inner } = match;
    if (inner.includes('../')) return true; // a climb is checked against the blocks around it
    const plain = PLAIN.exec(inner);
    if (plain === null) return true;
    if (plain[1] !== undefined && (SERVICE_HELPERS.has(plain[1]) || HANDLEBARS_HELPERS.has(plain[1])))
      return true;
  }
  return false;
}

/**
 * Findings for one template string at `pointer`. With `context`, also `render-empty` for each value the template
 * prints or passes to a helper that is missing, null or empty there.
 */
export function checkTemplate(
  source: string,
  pointer: string,
  context?: Record<string, unknown> | (() => Record<string, unknown>),
  { systemOnly = false }: { systemOnly?: boolean } = {},
): RenderFinding[] {
  // No mustache: no helper, no value (the common case of a fixed subject or a plain block).
  if (!source.includes('{{')) return [];
  const walk: Walk = { pointer, findings: [], offsetOf: () => 0, source, hidden: new Set() };
  if (mayCallHelpers(source)) {
    const parsed = parseTemplate(source);
    if (!parsed.ok) return [];
    walk.offsetOf = parsed.offsetOf;
    walkProgram(walk, parsed.program, { inComparison: false, levels: 0 });
  }
  // systemOnly: the payload was sampled from these very templates, so only the service's own variables can be empty.
  if (context === undefined) return walk.findings;
  if (!systemOnly || (SYSTEM_MENTION.test(source) && !readsOnlySampleSubscriber(source)))
    findEmpty(walk, typeof context === 'function' ? context() : context, systemOnly);
  return walk.findings;
}

/** The sample subscriber's own fields (sample-data.ts sampleSubscriber), each a non-empty string. */
const SAMPLE_SUBSCRIBER_FIELDS = new Set([
  'subscriberId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'locale',
  'avatar',
]);
const SYSTEM_WORD = /subscriber|step|branding|tenant|actor|preheader/g;
const OPEN = 123; // {
const DOT = 46;

// The ASCII characters of a Handlebars ID (`[^\s!"#%-,\.\/;->@\[-\^`\{-~]`, fast-template.ts), `[A-Za-z0-9_$:?-]`,
// as a look-up table; beyond ASCII, none is counted (conservative: a mention next to one takes the scan).
const ID_CHARS = new Uint8Array(0x80);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$:?-')
  ID_CHARS[c.charCodeAt(0)] = 1;

function isIdChar(code: number): boolean {
  return code < 0x80 && ID_CHARS[code] === 1;
}

/**
 * Whether every mention of a service variable's name in `source` is `{{subscriber.<field>}}` (or `{{{…}}}`) for a
 * field the sample subscriber has, or part of a longer name: then no system variable can render empty with the sample (checkWorkflow), and the
 * scan is skipped. Such a mustache reads `subscriber.<field>` (present: not empty), or, inside an `each`/`with`, a
 * payload path (not checked when systemOnly); a name resolved to a service variable needs its first segment written
 * in the text, so any other mention (`../`, `@root.`, `#with step`, block params, `{{subscriber.nickname}}`, a
 * mention in plain text…) takes the scan. Conservative: false only costs the scan.
 */
function readsOnlySampleSubscriber(source: string): boolean {
  // exec with lastIndex rather than matchAll: no iterator and no copy of the expression for every template.
  SYSTEM_WORD.lastIndex = 0;
  for (let match = SYSTEM_WORD.exec(source); match !== null; match = SYSTEM_WORD.exec(source)) {
    const at = match.index;
    // Part of a longer name (`actorName`, `steps`, `mysubscriber`): not a service variable's segment.
    if (isIdChar(source.charCodeAt(at - 1)) || isIdChar(source.charCodeAt(at + match[0].length))) continue;
    if (match[0] !== 'subscriber') return false;
    if (source.charCodeAt(at - 1) !== OPEN || source.charCodeAt(at - 2) !== OPEN) return false;
    const dot = at + 'subscriber'.length;
    if (source.charCodeAt(dot) !== DOT) return false;
    const end = source.indexOf('}}', dot);
    if (end === -1 || !SAMPLE_SUBSCRIBER_FIELDS.has(source.slice(dot + 1, end))) return false;
  }
  return true;
}

/**
 * Where a walk stands: inside a comparison block (whose body has no payload), and how many blocks above it gave their
 * body a new context (`../` climbs one each; undefined once a block of unknown kind was entered).
 */
interface Scope {
  inComparison: boolean;
  levels: number | undefined;
}

/** Block helpers that run their body with a new context (each item, the `with` value, the comparisons' module). */
const NEW_CONTEXT = new Set(['each', 'with', ...COMPARISONS]);
/** Block helpers that run both branches with the context they are in: no `../` step is added. */
const SAME_CONTEXT = new Set(['if', 'unless', 'equals']);

function walkProgram(walk: Walk, program: HbsProgram | undefined, scope: Scope): void {
  if (!Array.isArray(program?.body)) return;
  for (const node of program.body) walkNode(walk, node, scope);
}

function walkNode(walk: Walk, node: HbsNode | undefined, scope: Scope): void {
  if (node === undefined) return;
  const type = node.type;
  if (type === 'MustacheStatement' || type === 'SubExpression' || type === 'BlockStatement') {
    const block = type === 'BlockStatement';
    const name = helperName(node.path);
    checkCall(walk, node, name, block);
    if (node.path?.type === 'SubExpression') walkNode(walk, node.path, scope);
    else climbs(walk, node.path, scope);
    for (const param of node.params ?? []) walkExpression(walk, param, scope);
    for (const pair of node.hash?.pairs ?? []) walkExpression(walk, pair.value, scope);
    if (!block && node.path?.type === 'PathExpression' && !isCall(node) && scope.inComparison)
      hide(walk, node.path);
    if (block) {
      const entersComparison = name !== undefined && COMPARISONS.has(name);
      // `each`/`with` inside a comparison block start from whatever they name, which is itself hidden.
      const inComparison = scope.inComparison || entersComparison;
      const known = name !== undefined && (NEW_CONTEXT.has(name) || SAME_CONTEXT.has(name)) && isCall(node);
      const levels = known ? scope.levels : undefined;
      const adds = name !== undefined && NEW_CONTEXT.has(name) ? 1 : 0;
      walkProgram(walk, node.program, {
        inComparison,
        levels: levels === undefined ? undefined : levels + adds,
      });
      // `{{else}}` of each and with runs with the context they are in; of a comparison, with its module as well.
      const elseAdds = entersComparison ? 1 : 0;
      walkProgram(walk, node.inverse, {
        inComparison,
        levels: levels === undefined ? undefined : levels + elseAdds,
      });
    }
    return;
  }
  if (type === 'PartialStatement' || type === 'PartialBlockStatement')
    walkProgram(walk, node.program, { inComparison: scope.inComparison, levels: undefined });
}

function walkExpression(walk: Walk, node: HbsNode | undefined, scope: Scope): void {
  if (node?.type === 'SubExpression') walkNode(walk, node, scope);
  else if (node?.type === 'PathExpression') {
    climbs(walk, node, scope);
    if (scope.inComparison) hide(walk, node);
  }
}

/**
 * A `../` path that climbs past the template's top: Handlebars adds a `../` step only for a block that gives its body
 * a new context, so inside `{{#equals}}`, `{{#if}}` or `{{#unless}}` at the top `../name` reads nothing and renders
 * empty in the service (`{{name}}` and `{{@root.name}}` read the payload there).
 */
function climbs(walk: Walk, path: HbsNode | undefined, scope: Scope): void {
  if (path?.type !== 'PathExpression' || path.data === true || scope.levels === undefined) return;
  if (typeof path.depth !== 'number' || path.depth <= scope.levels) return;
  const start = walk.offsetOf(path);
  const original = String(path.original);
  walk.hidden.add(start);
  walk.findings.push({
    code: 'render-surprise',
    severity: 'warning',
    message: `\`${original}\` renders empty: \`../\` climbs one block that gives its body a new context (each, with, gt/gte/lt/lte/eq/ne), and \`equals\`, \`if\` and \`unless\` give none, so this climbs past the top; write \`@root.${original.replace(/^(\.\.\/)+/, '')}\``,
    pointer: walk.pointer,
    start,
    end: start + original.length,
  });
}

/** A path read where the comparison block's context stands in for the payload. */
function hide(walk: Walk, path: HbsNode): void {
  if (path.data === true || (typeof path.depth === 'number' && path.depth > 0)) return; // @root.x, ../x
  if (!Array.isArray(path.parts) || path.parts.length === 0) return;
  const start = walk.offsetOf(path);
  walk.hidden.add(start);
  const original = String(path.original);
  walk.findings.push({
    code: 'render-surprise',
    severity: 'warning',
    message: `\`${original}\` renders empty here: the service renders the body of gt/gte/lt/lte/eq/ne blocks with a context that is not the payload; write \`@root.${original.replace(/^this\./, '')}\` (or \`../${original}\`)`,
    pointer: walk.pointer,
    start,
    end: start + original.length,
  });
}

const SYSTEM_MENTION = /subscriber|step|branding|tenant|actor|preheader/;

function findEmpty(walk: Walk, context: Record<string, unknown>, systemOnly: boolean): void {
  for (const usage of scanTemplate(walk.source).usages) {
    if (usage.type === 'Boolean' || walk.hidden.has(usage.offset)) continue;
    if (systemOnly && !isSystemVariable(usage.name)) continue;
    if (!rendersEmpty(context, usage.name.split('.'))) continue;
    const text = /^[^\s}|)(=~]+/.exec(walk.source.slice(usage.offset))?.[0] ?? usage.name;
    walk.findings.push({
      code: 'render-empty',
      severity: 'warning',
      message:
        usage.type === 'Array'
          ? `\`${usage.name}\` is missing: the block iterates nothing`
          : `\`${usage.name}\` renders empty with this data`,
      pointer: walk.pointer,
      start: usage.offset,
      end: usage.offset + text.length,
    });
  }
}

/** Whether `segments` lead to nothing printable in `value`; through an array, whether any element does. */
function rendersEmpty(value: unknown, segments: string[]): boolean {
  let current: unknown[] = [value];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const holder of current) {
      const items = Array.isArray(holder) ? holder : [holder];
      if (items.length === 0) return false; // an empty array: the block body never runs
      for (const item of items) {
        if (item === null || typeof item !== 'object' || !Object.hasOwn(item, segment)) return true;
        next.push((item as Record<string, unknown>)[segment]);
      }
    }
    current = next;
  }
  return current.some((v) => v === undefined || v === null || v === '');
}
