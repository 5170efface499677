/**
 * The checks of one helper call in a template: a helper the service does not have, the wrong number of arguments, a
 * block helper used inline, a `dateFormat` pattern date-fns refuses, `decimalLength=0`, and `i18n` (not previewed).
 * The walk that reaches each call is template-check.ts.
 */
import { HANDLEBARS_HELPERS, SERVICE_HELPERS } from '../derive/service-helpers.js';
import type { HbsNode } from '../derive/types.js';
import { datePatternError } from './date-format.js';
import type { RenderFinding } from './types.js';

/** One template's walk: where its findings go and how a node maps to an offset in the text. */
export interface Walk {
  pointer: string;
  findings: RenderFinding[];
  offsetOf: (node: HbsNode | undefined) => number;
  source: string;
  /** Offsets of paths read inside a comparison block (reported as a surprise, not as empty). */
  hidden: Set<number>;
}

/** The findings for the call `node` makes to `name` (a block when `block`). */
export function checkCall(walk: Walk, node: HbsNode, name: string | undefined, block: boolean): void {
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
      message: `\`${name}\` is a block helper (\`{{#${name} a b}}…{{/${name}}}\`); inline (or as a sub-expression), the service fails with "options.fn is not a function" (values loosely equal) or "options.inverse is not a function" (not)`,
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
  const refused = datePatternError(pattern.original);
  if (refused === undefined) return;
  const start = walk.offsetOf(pattern);
  walk.findings.push({
    code: 'render-date-format',
    severity: 'error',
    message: `date-fns refuses the pattern \`${pattern.original}\` (the step fails to render): ${refused}`,
    pointer: walk.pointer,
    start,
    end: start + pattern.original.length + 2,
  });
  void at;
}

/** The name of a helper `path` can call: a single plain segment, or undefined. */
export function helperName(path: HbsNode | undefined): string | undefined {
  if (path?.type !== 'PathExpression' || path.data === true || path.depth !== 0) return undefined;
  const parts = path.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || path.original !== parts[0]) return undefined;
  return parts[0] as string;
}

/** Whether `node` passes arguments or a hash (so a helper is called). */
export function isCall(node: HbsNode): boolean {
  return (node.params?.length ?? 0) > 0 || (node.hash?.pairs?.length ?? 0) > 0;
}

function numberLiteral(node: HbsNode | undefined): number | undefined {
  return node?.type === 'NumberLiteral' && typeof node.original === 'number' ? node.original : undefined;
}
