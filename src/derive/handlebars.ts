/**
 * Which variables a Handlebars string reads, by Handlebars' own scoping rules: `{{#each xs}}{{y}}{{/each}}` reads
 * `xs` (Array) and `xs.y`, `../z` climbs out of the `each`, `@index` is not a variable, helpers are not variables but
 * their arguments are. server-scan.ts reproduces the service's cruder extractor where the two differ.
 */

import { parseTemplate, scanError } from './parse-template.js';
import { BUILT_IN_HELPERS } from './service-helpers.js';
import type { HbsNode, HbsProgram, TemplateScan, VariableType, VariableUsage } from './types.js';

/** Every variable use in `source`, in source order (see TemplateScan). Never throws. */
export function scanTemplate(source: string): TemplateScan {
  const parsed = parseTemplate(source);
  if (!parsed.ok) return { usages: [], error: scanError(parsed) };
  const usages: VariableUsage[] = [];
  const walker: Walker = { usages, offsetOf: parsed.offsetOf };
  walkProgram(walker, parsed.program, { contexts: [[]], blockParams: [] });
  return { usages };
}

interface Walker {
  usages: VariableUsage[];
  offsetOf: (node: HbsNode | undefined) => number;
}

/**
 * Where names resolve. `contexts` is the stack `../` climbs: the root first, then one entry per `each`/`with`;
 * `null` for a context that has no name (each over a sub-expression). Like Handlebars 4, `if` and other helpers do
 * not add a level. `blockParams` are the `as |item i|` names in scope, innermost last; `null` for an index.
 */
interface Scope {
  contexts: Array<string[] | null>;
  blockParams: Array<Map<string, string[] | null>>;
  /** The enclosing `if`/`unless` conditions, outermost first (VariableUsage.conditions). */
  conditions?: Array<readonly string[] | null>;
}

type BlockKind = 'each' | 'with' | 'if' | 'section' | 'helper';

function walkProgram(walker: Walker, program: HbsProgram | undefined, scope: Scope): void {
  if (!Array.isArray(program?.body)) return;
  for (const node of program.body) walkStatement(walker, node, scope);
}

function walkStatement(walker: Walker, node: HbsNode, scope: Scope): void {
  switch (node?.type) {
    case 'MustacheStatement':
      if (isHelperCall(node)) walkCall(walker, node, scope);
      else if (!isBuiltInHelperName(node.path)) record(walker, node.path, 'String', scope);
      return;
    case 'BlockStatement':
      walkBlock(walker, node, scope);
      return;
    case 'PartialStatement':
    case 'PartialBlockStatement':
      // The partial's name is not a variable; its context and hash arguments are.
      if (node.name?.type === 'SubExpression') walkCall(walker, node.name, scope);
      walkArguments(walker, node, scope);
      walkProgram(walker, node.program, scope);
      return;
    default:
      // Content, comments and decorators read no variables.
      return;
  }
}

function walkBlock(walker: Walker, node: HbsNode, scope: Scope): void {
  const params = Array.isArray(node.params) ? node.params : [];
  const kind = blockKind(node, params);
  let inner = scope;
  let otherwise = scope; // where `{{else}}` runs: the block's own context
  if (kind === 'each' || kind === 'with' || kind === 'if') {
    const [subject, ...rest] = params;
    let context: string[] | null = null;
    if (subject?.type === 'PathExpression') {
      context = resolve(subject, scope)?.segments ?? null;
      if (kind === 'each') record(walker, subject, 'Array', scope);
      else if (kind === 'if') record(walker, subject, 'Boolean', underCondition(scope, null));
    } else if (subject?.type === 'SubExpression') {
      walkCall(walker, subject, scope);
    }
    for (const param of rest) walkExpression(walker, param, scope);
    walkHash(walker, node, scope);
    // `each` and `with` run their body in the element / object; `if` and `unless` stay where they are, under their
    // condition: an `if`'s body where the subject is truthy, an `unless`'s `{{else}}`; the other branch where it
    // is falsy (null: no path is known truthy there).
    if (kind !== 'if') inner = enter(scope, context, node.program, [context, null]);
    else {
      const unless = simpleName(node.path) === 'unless';
      inner = underCondition(scope, unless ? null : context);
      otherwise = underCondition(scope, unless ? context : null);
    }
  } else if (kind === 'section') {
    // `{{#xs}}…{{/xs}}` (Mustache style): the body runs inside xs; xs itself is not recorded (nor by the service).
    inner = enter(scope, resolve(node.path, scope)?.segments ?? null, node.program, []);
  } else {
    // Any other block helper: its arguments are variables, its body runs in the same context.
    walkArguments(walker, node, scope);
    inner = enter(scope, undefined, node.program, []);
  }
  walkProgram(walker, node.program, inner);
  walkProgram(walker, node.inverse, otherwise);
}

function blockKind(node: HbsNode, params: HbsNode[]): BlockKind {
  const name = simpleName(node.path);
  const hasArguments = params.length > 0 || hashPairs(node).length > 0;
  if (hasArguments && name === 'each') return 'each';
  if (hasArguments && name === 'with') return 'with';
  if (hasArguments && (name === 'if' || name === 'unless')) return 'if';
  if (!hasArguments && node.path?.type === 'PathExpression' && !isBuiltInHelperName(node.path)) {
    return name === 'each' || name === 'with' || name === 'if' || name === 'unless' ? 'helper' : 'section';
  }
  return 'helper';
}

/** `scope` one condition deeper: `path` is truthy there (null: nothing known). */
function underCondition(scope: Scope, path: string[] | null): Scope {
  return { ...scope, conditions: [...(scope.conditions ?? []), path] };
}

/** A new scope for a block body: a context level when `context` is given, and its block params. */
function enter(
  scope: Scope,
  context: string[] | null | undefined,
  program: HbsProgram | undefined,
  meanings: Array<string[] | null>,
): Scope {
  const contexts = context === undefined ? scope.contexts : [...scope.contexts, context];
  const names = Array.isArray(program?.blockParams) ? program.blockParams : [];
  const guard = scope.conditions ? { conditions: scope.conditions } : {};
  if (names.length === 0) return { contexts, blockParams: scope.blockParams, ...guard };
  const declared = new Map<string, string[] | null>();
  names.forEach((name, i) => {
    if (typeof name === 'string') declared.set(name, meanings[i] ?? null);
  });
  return { contexts, blockParams: [...scope.blockParams, declared], ...guard };
}

/** A helper call: the helper's name is not a variable; its arguments are. */
function walkCall(walker: Walker, node: HbsNode, scope: Scope): void {
  if (node.path?.type === 'SubExpression') walkCall(walker, node.path, scope);
  walkArguments(walker, node, scope);
}

function walkArguments(walker: Walker, node: HbsNode, scope: Scope): void {
  if (Array.isArray(node.params)) for (const param of node.params) walkExpression(walker, param, scope);
  walkHash(walker, node, scope);
}

function walkHash(walker: Walker, node: HbsNode, scope: Scope): void {
  for (const pair of hashPairs(node)) walkExpression(walker, pair.value, scope);
}

function walkExpression(walker: Walker, node: HbsNode | undefined, scope: Scope): void {
  if (node?.type === 'PathExpression') record(walker, node, 'String', scope);
  else if (node?.type === 'SubExpression') walkCall(walker, node, scope);
  // Literals are values, not variables.
}

function record(walker: Walker, path: HbsNode | undefined, type: VariableType, scope: Scope): void {
  const read = resolve(path, scope);
  if (read === null || read.itself || read.segments.length === 0) return;
  const usage: VariableUsage = { name: read.segments.join('.'), type, offset: walker.offsetOf(path) };
  if (scope.conditions) usage.conditions = scope.conditions;
  walker.usages.push(usage);
}

/**
 * What a path expression reads, as segments from the root; `itself` when it names a context or element as a whole
 * (`{{this}}` in `each` is the element: the array is already recorded). Null when it reads no variable: data like
 * `@index`, an index block param, a path into an unnamed context. `this` and `./` are already gone from `parts`.
 */
function resolve(path: HbsNode | undefined, scope: Scope): { segments: string[]; itself: boolean } | null {
  if (path?.type !== 'PathExpression' || !isStringArray(path.parts)) return null;
  const parts = path.parts;
  if (path.data === true) {
    // `@root.x` is x; `@index`, `@key`, `@first` are data.
    return parts[0] === 'root' ? { segments: parts.slice(1), itself: parts.length === 1 } : null;
  }
  const depth = typeof path.depth === 'number' ? path.depth : 0;
  const scoped = typeof path.original === 'string' && /^\.|this\b/.test(path.original);
  const head = parts[0];
  if (depth === 0 && !scoped && head !== undefined) {
    for (let i = scope.blockParams.length - 1; i >= 0; i--) {
      const declared = scope.blockParams[i];
      if (!declared?.has(head)) continue;
      const meaning = declared.get(head);
      return meaning ? { segments: [...meaning, ...parts.slice(1)], itself: parts.length === 1 } : null;
    }
  }
  const context = scope.contexts[scope.contexts.length - 1 - depth];
  return context ? { segments: [...context, ...parts], itself: parts.length === 0 } : null;
}

function isHelperCall(node: HbsNode): boolean {
  return (Array.isArray(node.params) && node.params.length > 0) || hashPairs(node).length > 0;
}

function isBuiltInHelperName(path: HbsNode | undefined): boolean {
  const name = simpleName(path);
  return name !== undefined && BUILT_IN_HELPERS.has(name);
}

/** `each` for `{{#each …}}`; undefined for `this.each`, `../each`, `@each`, `a.b`. */
function simpleName(path: HbsNode | undefined): string | undefined {
  if (path?.type !== 'PathExpression' || path.data === true || path.depth !== 0) return undefined;
  if (!isStringArray(path.parts) || path.parts.length !== 1 || path.original !== path.parts[0])
    return undefined;
  return path.parts[0];
}

function hashPairs(node: HbsNode): Array<{ value?: HbsNode }> {
  const pairs = node.hash?.pairs;
  return Array.isArray(pairs) ? pairs : [];
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((part) => typeof part === 'string');
}
