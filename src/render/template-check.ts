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
import { formatDate } from './date-format.js';
import type { RenderFinding } from './types.js';

const COMPARISONS = new Set(['gt', 'gte', 'lt', 'lte', 'eq', 'ne']);
const PROBE_DATE = new Date(Date.UTC(2024, 2, 14, 9, 26, 53));

// A mustache that can call no helper: `{{path}}`, `{{{path}}}`, `{{&path}}`, `{{#each path}}` (each/if/unless/with),
// `{{else}}`, `{{/name}}`. Anything else (arguments, sub-expressions, partials, comments…) takes the full walk.
const MUSTACHE = /\{\{\{?~?\s*([\s\S]*?)\s*~?\}?\}\}/g;
const PLAIN =
  /^(?:&\s*)?([^\s()=!>#^/{}~"']+)$|^[#^]\s*(?:each|if|unless|with)\s+[^\s()=~"']+$|^\/\s*\S+$|^else$/;

/** Whether `source` may call a helper (so the AST must be walked); false only when every mustache is plain. */
function mayCallHelpers(source: string): boolean {
  // exec with lastIndex rather than matchAll: no iterator and no copy of the expression for every template.
  MUSTACHE.lastIndex = 0;
  for (let match = MUSTACHE.exec(source); match !== null; match = MUSTACHE.exec(source)) {
    const inner = match[1] as string;
    const plain = PLAIN.exec(inner);
    if (plain === null) return true;
    if (plain[1] !== undefined && (SERVICE_HELPERS.has(plain[1]) || HANDLEBARS_HELPERS.has(plain[1])))
      return true;
  }
  return false;
}

interface Walk {
  pointer: string;
  findings: RenderFinding[];
  offsetOf: (node: HbsNode | undefined) => number;
  source: string;
  /** Offsets of paths read inside a comparison block (reported as a surprise, not as empty). */
  hidden: Set<number>;
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
    walkProgram(walk, parsed.program, false);
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

// The ASCII characters of a Handlebars ID (`[^\s!"#%-,\.\/;->@\[-\^`\{-~]`, fast-template.ts); beyond ASCII, none is
// counted (conservative: a mention next to one takes the scan).
const ID_CHAR = /[A-Za-z0-9_$:?-]/;

function isIdChar(code: number): boolean {
  return code < 0x80 && ID_CHAR.test(String.fromCharCode(code));
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
  for (const match of source.matchAll(SYSTEM_WORD)) {
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

function walkProgram(walk: Walk, program: HbsProgram | undefined, inComparison: boolean): void {
  if (!Array.isArray(program?.body)) return;
  for (const node of program.body) walkNode(walk, node, inComparison);
}

function walkNode(walk: Walk, node: HbsNode | undefined, inComparison: boolean): void {
  if (node === undefined) return;
  const type = node.type;
  if (type === 'MustacheStatement' || type === 'SubExpression' || type === 'BlockStatement') {
    const block = type === 'BlockStatement';
    const name = helperName(node.path);
    checkCall(walk, node, name, block);
    if (node.path?.type === 'SubExpression') walkNode(walk, node.path, inComparison);
    for (const param of node.params ?? []) walkExpression(walk, param, inComparison);
    for (const pair of node.hash?.pairs ?? []) walkExpression(walk, pair.value, inComparison);
    if (!block && node.path?.type === 'PathExpression' && !isCall(node) && inComparison)
      hide(walk, node.path);
    if (block) {
      const entersComparison = name !== undefined && COMPARISONS.has(name);
      // `each`/`with` inside a comparison block start from whatever they name, which is itself hidden.
      walkProgram(walk, node.program, inComparison || entersComparison);
      walkProgram(walk, node.inverse, inComparison || entersComparison);
    }
    return;
  }
  if (type === 'PartialStatement' || type === 'PartialBlockStatement')
    walkProgram(walk, node.program, inComparison);
}

function walkExpression(walk: Walk, node: HbsNode | undefined, inComparison: boolean): void {
  if (node?.type === 'SubExpression') walkNode(walk, node, inComparison);
  else if (node?.type === 'PathExpression' && inComparison) hide(walk, node);
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

function checkCall(walk: Walk, node: HbsNode, name: string | undefined, block: boolean): void {
  if (name === undefined) return;
  const spec = SERVICE_HELPERS.get(name);
  // `{{x}}` alone reads a variable unless x is a helper; a service helper alone is called with no arguments.
  if (spec === undefined && !isCall(node)) return;
  const start = walk.offsetOf(node.path);
  const end = start + name.length;
  const at = { pointer: walk.pointer, start, end };
  if (spec === undefined) {
    if (HANDLEBARS_HELPERS.has(name)) return;
    walk.findings.push({
      code: 'render-helper-unknown',
      severity: 'error',
      message: `Missing helper: "${name}" (the service has no helper \`${name}\`: the step fails to render)`,
      ...at,
    });
    return;
  }
  const count = node.params?.length ?? 0;
  if (count < spec.min || count > spec.max) {
    const wanted = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
    walk.findings.push({
      code: 'render-helper-arity',
      severity: 'error',
      message: `\`${name}\` takes ${wanted} argument${spec.max === 1 ? '' : 's'}, given ${count}`,
      ...at,
    });
  } else if (spec.block === 'required' && !block) {
    walk.findings.push({
      code: 'render-helper-arity',
      severity: 'error',
      message: `\`${name}\` is a block helper (\`{{#${name} a b}}…{{/${name}}}\`); inline, the service fails with "options.fn is not a function"`,
      ...at,
    });
  }
  if (name === 'i18n') {
    walk.findings.push({
      code: 'render-unsupported',
      severity: 'info',
      message: 'translations are not previewed: `i18n` shows its key (or its block as the default text)',
      ...at,
    });
  }
  if (name === 'dateFormat') checkDatePattern(walk, node, at);
  if (
    name === 'numberFormat' &&
    numberLiteral(node.hash?.pairs?.find((p) => p.key === 'decimalLength')?.value) === 0
  ) {
    walk.findings.push({
      code: 'render-surprise',
      severity: 'warning',
      message: '`decimalLength=0` gives 2 decimals: the service treats 0 as "not given"',
      ...at,
    });
  }
}

function checkDatePattern(
  walk: Walk,
  node: HbsNode,
  at: { pointer: string; start: number; end: number },
): void {
  const pattern = node.params?.[1];
  if (pattern?.type !== 'StringLiteral' || typeof pattern.original !== 'string') return;
  try {
    formatDate(PROBE_DATE, pattern.original);
  } catch (error) {
    const start = walk.offsetOf(pattern);
    const where = { pointer: walk.pointer, start, end: start + pattern.original.length + 2 };
    walk.findings.push({
      code: 'render-date-format',
      severity: 'error',
      message: `date-fns refuses the pattern \`${pattern.original}\` (the step fails to render): ${error instanceof Error ? error.message.replace(/ to the input `[^`]*`/, '') : String(error)}`,
      ...where,
    });
  }
  void at;
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

function helperName(path: HbsNode | undefined): string | undefined {
  if (path?.type !== 'PathExpression' || path.data === true || path.depth !== 0) return undefined;
  const parts = path.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || path.original !== parts[0]) return undefined;
  return parts[0] as string;
}

function isCall(node: HbsNode): boolean {
  return (node.params?.length ?? 0) > 0 || (node.hash?.pairs?.length ?? 0) > 0;
}

function numberLiteral(node: HbsNode | undefined): number | undefined {
  return node?.type === 'NumberLiteral' && typeof node.original === 'number' ? node.original : undefined;
}
