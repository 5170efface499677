// Frozen copy of src/derive/server-scan.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.
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
import { BUILT_IN_HELPERS } from '../../../../src/derive/names.js';
import { parseTemplate } from '../../../../src/derive/parse-template.js';
import type { HbsNode, TemplateScan, VariableUsage } from '../../../../src/derive/types.js';

// The service checks names with /^[a-zA-Z_][a-zA-Z0-9_-]*?/, which only constrains the first character.
const VALID_NAME = /^[a-zA-Z_]/;
// Its helper list predates `lookup` and `log`.
const SERVER_HELPERS: ReadonlySet<string> = new Set(
  [...BUILT_IN_HELPERS].filter((h) => h !== 'lookup' && h !== 'log'),
);

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
  if (!parsed.ok) return { usages: [], error: { message: parsed.message, offset: parsed.offset } };
  const body = Array.isArray(parsed.program.body) ? parsed.program.body : [];
  try {
    return {
      usages: extract(body).map((v) => ({ name: v.name, type: v.type, offset: parsed.offsetOf(v.node) })),
    };
  } catch (error) {
    if (!(error instanceof Unextractable)) throw error;
    return {
      usages: [],
      error: { message: error.reason, offset: parsed.offsetOf(error.node) },
    };
  }
}

interface Extracted extends Omit<VariableUsage, 'offset'> {
  node: HbsNode | undefined;
}

/** getTemplateVariables: `nodes` is a Program body, or a list of hash pairs for `{{i18n}}`. */
function extract(nodes: readonly HbsNode[]): Extracted[] {
  // Evaluated in the service's order (pairs first) so the first failure is the one it would hit.
  const pairs = nodes.flatMap((node): Extracted[] => {
    if (node.type !== 'HashPair') return [];
    const value = (node as { value?: HbsNode }).value;
    return isName(value?.original, value)
      ? [{ name: value?.original as string, type: 'String', node: value }]
      : [];
  });
  const strings = nodes.flatMap((node): Extracted[] => {
    if (node.type !== 'MustacheStatement') return [];
    const [first] = node.params ?? [];
    if (node.path?.original === 'i18n') return node.hash?.pairs ? extract(node.hash.pairs as HbsNode[]) : [];
    const source = first?.original ? first : node.path;
    if (!isName(source?.original, source)) return [];
    if (first?.original && !SERVER_HELPERS.has(node.path?.original as string)) return [];
    return [{ name: source?.original as string, type: 'String', node: source }];
  });
  const arrays = nodes.flatMap((node): Extracted[] => {
    if (node.type !== 'BlockStatement' || (node.path?.original !== 'each' && node.path?.original !== 'with'))
      return [];
    const source = subjectOf(node);
    const name = source?.original;
    if (!isName(name, source)) return [];
    const nested = extract(bodyOf(node)).map((v) => ({ ...v, name: `${name}.${v.name}` }));
    return node.path.original === 'with' ? nested : [{ name, type: 'Array', node: source }, ...nested];
  });
  const booleans = nodes.flatMap((node): Extracted[] => {
    if (node.type !== 'BlockStatement' || (node.path?.original !== 'if' && node.path?.original !== 'unless'))
      return [];
    const source = subjectOf(node);
    const name = source?.original;
    if (!isName(name, source)) return [];
    if ((node.params?.length ?? 0) > 1) return [];
    return [{ name, type: 'Boolean', node: source }, ...extract(bodyOf(node))];
  });
  return [...strings, ...arrays, ...booleans, ...pairs];
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
  if (typeof name === 'string') return VALID_NAME.test(name);
  const what =
    name === undefined ? 'an expression without a name (a sub-expression or `undefined`)' : `\`${name}\``;
  throw new Unextractable(node, `${what} stands where the service's variable extraction expects a name`);
}
