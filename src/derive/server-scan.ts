/**
 * The service's own variable extractor (`getTemplateVariables` in @novu/shared), reproduced quirk for quirk, for
 * when wfsync must predict the exact trigger a server answers with rather than what a template really reads.
 * Where it differs from scanTemplate:
 * - order: per block level, plain `{{…}}` first, then `each`/`with` blocks, then `if`/`unless`, then i18n hash pairs;
 * - a mustache with arguments yields its FIRST argument only, and only for a built-in helper (`{{foo a}}` → nothing,
 *   `{{uppercase a b}}` → a); `{{i18n …}}` yields its hash values only; sub-expressions are not entered;
 * - names are the source text, prefixed inside `each`/`with`: `this.y` → `xs.this.y`; names not starting with a
 *   letter or `_` are dropped (`../z`, `@index`); a string literal counts as a name (`{{equals "a" b}}` → `a`);
 * - `{{else}}` branches, other block helpers and `if` with two arguments are skipped, bodies included;
 * - a number, boolean, null or undefined literal (or a sub-expression) where it expects a name, and an inverse-only
 *   `{{^if a}}`/`{{^each xs}}`, make it throw: the service answers 400 `Failed to extract variables`.
 */
import { parseTemplate, scanError } from './parse-template.js';
import { EXTRACTOR_HELPERS } from './service-helpers.js';
import type { HbsNode, TemplateScan, VariableType, VariableUsage } from './types.js';

// The service checks names with /^[a-zA-Z_][a-zA-Z0-9_-]*?/, which only constrains the first character: an ASCII
// letter or `_` (tested on the char code, not with a regular expression per name).
function startsLikeName(name: string): boolean {
  const c = name.charCodeAt(0) | 0x20; // ASCII letters to lower case; NaN (empty) to 0x20
  return (c >= 0x61 && c <= 0x7a) || name.charCodeAt(0) === 0x5f;
}

/** Where the service's extractor would throw, and why. */
class Unextractable {
  constructor(
    readonly node: HbsNode | undefined,
    readonly reason: string,
  ) {}
}

/** The variables the service extracts from `source`, in its order, with offsets (see TemplateScan). Never throws. */
export function scanTemplateAsServer(source: string): TemplateScan {
  const parsed = parseTemplate(source);
  if (!parsed.ok) return { usages: [], error: scanError(parsed) };
  const body = Array.isArray(parsed.program.body) ? parsed.program.body : [];
  const usages: VariableUsage[] = [];
  try {
    extract(body, { prefix: '', offsetOf: parsed.offsetOf, out: usages });
  } catch (error) {
    if (!(error instanceof Unextractable)) throw error;
    return { usages: [], error: { message: error.reason, offset: parsed.offsetOf(error.node) } };
  }
  return { usages };
}

interface Extraction {
  /** `xs.` inside `{{#each xs}}`: the service names nested variables after their blocks. */
  prefix: string;
  offsetOf: (node: HbsNode | undefined) => number;
  out: VariableUsage[];
}

/**
 * getTemplateVariables: `nodes` is a Program body, or a list of hash pairs for `{{i18n}}`. The service builds four
 * lists (plain mustaches, each/with blocks, if/unless blocks, hash pairs) and concatenates them; the same passes
 * here push straight into `out` in that order. Hash pairs are evaluated first, as the service does, so the first
 * failure is the one it would hit; they only occur in a list of pairs, where the other passes find nothing.
 */
function extract(nodes: readonly HbsNode[], into: Extraction): void {
  let pairs: HbsNode[] | undefined;
  for (const node of nodes) {
    if (node.type !== 'HashPair') continue;
    const value = (node as { value?: HbsNode }).value;
    if (!isName(value?.original, value) || !value) continue;
    pairs ??= [];
    pairs.push(value);
  }
  for (const node of nodes) {
    if (node.type !== 'MustacheStatement') continue;
    const [first] = node.params ?? [];
    if (node.path?.original === 'i18n') {
      if (node.hash?.pairs) extract(node.hash.pairs as HbsNode[], into);
      continue;
    }
    const source = first?.original ? first : node.path;
    if (!isName(source?.original, source)) continue;
    if (first?.original && !EXTRACTOR_HELPERS.has(node.path?.original as string)) continue;
    push(into, source, 'String');
  }
  for (const node of nodes) {
    if (node.type !== 'BlockStatement' || (node.path?.original !== 'each' && node.path?.original !== 'with'))
      continue;
    const source = subjectOf(node);
    const name = source?.original;
    if (!isName(name, source)) continue;
    const body = bodyOf(node);
    if (node.path.original === 'each') push(into, source, 'Array');
    extract(body, { ...into, prefix: `${into.prefix}${name}.` });
  }
  for (const node of nodes) {
    if (node.type !== 'BlockStatement' || (node.path?.original !== 'if' && node.path?.original !== 'unless'))
      continue;
    const source = subjectOf(node);
    const name = source?.original;
    if (!isName(name, source)) continue;
    if ((node.params?.length ?? 0) > 1) continue;
    const body = bodyOf(node);
    push(into, source, 'Boolean');
    extract(body, into);
  }
  if (pairs !== undefined) for (const value of pairs) push(into, value, 'String');
}

/** One variable named by `node`'s text (a name: the caller checked it), after the enclosing blocks' names. */
function push(into: Extraction, node: HbsNode | undefined, type: VariableType): void {
  const name = `${into.prefix}${node?.original as string}`;
  into.out.push({ name, type, offset: into.offsetOf(node) });
}

/** `params[0]?.original || path.original`: the node whose text the service takes as the name. */
function subjectOf(node: HbsNode): HbsNode | undefined {
  const [first] = node.params ?? [];
  return first?.original ? first : node.path;
}

function bodyOf(node: HbsNode): HbsNode[] {
  const body = node.program?.body;
  if (!Array.isArray(body))
    throw new Unextractable(
      node,
      "an inverse-only block (`{{^…}}`) breaks the service's variable extraction",
    );
  return body;
}

/** shouldAddVariable: `name.match(…)`, which throws when the "name" is not a string. */
function isName(name: unknown, node: HbsNode | undefined): name is string {
  if (typeof name === 'string') return startsLikeName(name);
  const what =
    name === undefined ? 'an expression without a name (a sub-expression or `undefined`)' : `\`${name}\``;
  throw new Unextractable(node, `${what} stands where the service's variable extraction expects a name`);
}
