import type { Document, ParsedNode } from 'yaml';
import { type Diagnostic, FILE_START, type Severity, type Span } from '../diagnostic.js';
import { messageOf } from '../errors.js';
import { compose, parseTokens } from './compose.js';
import { fileTooLargeMessage, type LoadLimits, resolveLoadLimits } from './limits.js';
import { createLazyLocate } from './locate.js';
import { createPositions, type Positions } from './positions.js';
import type { ParseResult } from './types.js';
import { decodeUtf8 } from './utf8.js';
import { isMap, isScalar, isSeq } from './yaml-lib.js';
import { yamlProblemDiagnostic } from './yaml-problems.js';
import { checkDocument } from './yaml-shape.js';

/** yaml can report one error per line after a bad indent; the first few say what is wrong. */
const MAX_YAML_ERRORS = 20;

/** Parses one workflow definition file. Pure: every problem is a Diagnostic with a position, never a throw. */
export function parseDefinition(file: string, bytes: Uint8Array, limits?: Partial<LoadLimits>): ParseResult {
  const { maxBytes, maxDepth, maxAliasCount } = resolveLoadLimits(limits);
  if (bytes.length > maxBytes) {
    const message = fileTooLargeMessage(bytes.length, maxBytes);
    return { diagnostics: [fileDiagnostic(file, 'file-too-large', 'error', message, FILE_START)] };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const { line, column } = decoded;
    const span = { line, column, endLine: line, endColumn: column + 1 };
    return { diagnostics: [fileDiagnostic(file, 'file-encoding', 'error', decoded.message, span)] };
  }
  return { ...parseText(file, decoded.text, { maxDepth, maxAliasCount }), text: decoded.text };
}

/** Everything after decoding: the YAML document, its checks and its JSON value. */
function parseText(
  file: string,
  text: string,
  limits: { maxDepth: number; maxAliasCount: number },
): ParseResult {
  const { maxDepth, maxAliasCount } = limits;
  const make = (code: string, severity: Severity, message: string, span: Span): Diagnostic =>
    fileDiagnostic(file, code, severity, message, span);
  const fail = (code: string, message: string, span: Span): ParseResult => ({
    diagnostics: [make(code, 'error', message, span)],
  });
  const positions = createPositions(text);

  const parsed = parseTokens(text, maxDepth);
  if ('tooDeepAt' in parsed) {
    return fail(
      'yaml-too-deep',
      `nesting is deeper than ${maxDepth} levels`,
      positions.lineSpan(parsed.tooDeepAt),
    );
  }
  const { doc, nextDocumentAt } = compose(parsed.tokens, text.length);

  const diagnostics = yamlDiagnostics(doc, { file, positions });
  if (nextDocumentAt !== undefined) {
    const message = 'a file holds one YAML document; move what follows this "---" to a file of its own';
    diagnostics.push(make('yaml-multiple-documents', 'error', message, positions.lineSpan(nextDocumentAt)));
  }
  if (doc.directives?.yaml.explicit && doc.directives.yaml.version === '1.1') {
    const message =
      '%YAML 1.1 is read with YAML 1.2 rules: yes/no/on/off stay text and dates are not converted';
    diagnostics.push(
      make('yaml-warning', 'warning', message, positions.lineSpan(Math.max(0, text.indexOf('%YAML')))),
    );
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };

  const root = doc.contents;
  if (root === null || isEmptyScalar(root)) {
    diagnostics.push(
      make('file-empty', 'error', 'file is empty: there is no YAML document in it', FILE_START),
    );
    return { diagnostics };
  }
  if (!isMap(root)) {
    const message = `the top level must be a mapping of keys to values (name: …), but this file holds ${describe(root)}`;
    diagnostics.push(make('root-not-mapping', 'error', message, positions.lineSpan(root.range[0])));
    return { diagnostics };
  }

  const checked = checkDocument(root, { file, positions, maxDepth });
  diagnostics.push(...checked.diagnostics);
  if (checked.diagnostics.length > 0) return { diagnostics };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount });
  } catch (error) {
    // yaml throws a ReferenceError once aliases expand past maxAliasCount ("billion laughs").
    const alias = checked.firstAlias?.range;
    const span = alias ? positions.span(alias[0], alias[1]) : FILE_START;
    const message =
      error instanceof ReferenceError
        ? `aliases expand too much (over ${maxAliasCount} alias uses); use fewer aliases or repeat the content`
        : `cannot turn the YAML into data: ${messageOf(error)}`;
    diagnostics.push(
      make(error instanceof ReferenceError ? 'yaml-alias-limit' : 'yaml-syntax', 'error', message, span),
    );
    return { diagnostics };
  }
  // The tree is not kept: 10,000 trees weigh ~300 MB and slow every GC. locate rebuilds it on first use,
  // which only files with findings ever need.
  const locate = createLazyLocate(text, positions, maxDepth);
  return { definition: { file, text, value, locate }, diagnostics };
}

function fileDiagnostic(
  file: string,
  code: string,
  severity: Severity,
  message: string,
  span: Span,
): Diagnostic {
  return { code, severity, message, file, pointer: '', ...span };
}

function yamlDiagnostics(
  doc: Document.Parsed,
  context: { file: string; positions: Positions },
): Diagnostic[] {
  const all = [
    ...doc.errors.map((e) => yamlProblemDiagnostic(e, false, context)),
    ...doc.warnings.map((w) => yamlProblemDiagnostic(w, true, context)),
  ];
  const errors = all.filter((d) => d.severity === 'error');
  if (errors.length <= MAX_YAML_ERRORS) return all;
  const kept = errors.slice(0, MAX_YAML_ERRORS);
  const lastKept = kept[kept.length - 1]!;
  kept[kept.length - 1] = {
    ...lastKept,
    message: `${lastKept.message} (and ${errors.length - MAX_YAML_ERRORS} more YAML errors in this file)`,
  };
  return [...kept, ...all.filter((d) => d.severity !== 'error')];
}

/** `---` with nothing after it: a document with no content at all (not even `~`). */
function isEmptyScalar(node: ParsedNode): boolean {
  return (
    isScalar(node) &&
    node.value === null &&
    node.range[0] === node.range[1] &&
    node.tag === undefined &&
    node.anchor === undefined
  );
}

function describe(node: ParsedNode): string {
  if (isSeq(node)) return 'a list';
  if (!isScalar(node)) return 'an alias';
  if (node.value === null) return 'null';
  if (typeof node.value === 'string') return 'a single string';
  return `a ${typeof node.value}`;
}
