/**
 * `wfsync pull` into a file that already holds the workflow: the file is edited in place to say what the service
 * holds, changing only what differs (scalars set where they stand, keys the service no longer has deleted, new keys
 * placed in schema order, steps matched by position, variables as sets), so comments, key order, quoting and flow
 * style survive and accepting drift from the dashboard makes a small diff. The result is read back and checked;
 * whatever cannot be merged safely gets the freshly generated text instead, and says why. Pure.
 */
import type { Document } from 'yaml';
import { compose, parseTokens } from '../definitions/compose.js';
import { DEFAULT_LOAD_LIMITS } from '../definitions/limits.js';
import { yamlLib } from '../definitions/yaml-lib.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord, type Json, jsonDepthExceeds } from '../json.js';
import { WORKFLOW_SHAPE } from '../plan/shape.js';
import { sameDeclared } from './merge-equal.js';
import { checkAliases, type MergeWalk, mergeNode, UnmergeableError } from './merge-nodes.js';
import { detectStyle, mergeLines, printDocument } from './merge-text.js';

export interface PullMergeOptions {
  /** What to write when the file cannot be edited safely: the freshly generated definition (with its modeline). */
  freshText: string;
  /** The group id the file's `notificationGroupId` (or its absence) resolves to on the target, if it resolves. */
  existingGroupId?: string;
  /** The group id the service holds. Equal to `existingGroupId`: the file's `group:<name>` (or omission) stays. */
  serviceGroupId?: string;
}

export interface PullMergeResult {
  /** The file's new text; the existing text itself when nothing changed. */
  text: string;
  /** Dotted paths that changed (`steps[1].template.content`, `tags`), in the file's order. */
  changed: string[];
  /** The definition the new text holds (to record in state). */
  definition: WorkflowDefinition;
  /** Set when the file was not edited in place but replaced by `freshText`: why. */
  rewritten?: string;
}

export function mergePulledDefinition(
  existingText: string,
  pulled: WorkflowDefinition,
  options: PullMergeOptions,
): PullMergeResult {
  // Edited as LF text without a BOM; both are put back as the file had them.
  const bom = existingText.startsWith('\uFEFF') ? '\uFEFF' : '';
  const crlf = existingText.includes('\r\n');
  const text = existingText.slice(bom.length).replace(/\r\n/g, '\n');
  const read = readDocument(text);
  const rewritten = (changed: string[], reason: string): PullMergeResult => ({
    text: options.freshText,
    changed,
    definition: pulled,
    rewritten: reason,
  });
  if (read === undefined) return rewritten([], 'the file does not read as a YAML mapping');
  const { doc, value: current } = read;
  const target = withKeptGroup(pulled as unknown as Json, current, options);
  const walk: MergeWalk = { doc, changed: [] };
  try {
    const style = detectStyle(doc, text);
    const before = printDocument(doc, style);
    doc.contents = mergeNode(walk, doc.contents, current, target, WORKFLOW_SHAPE, '') as typeof doc.contents;
    checkAliases(doc);
    if (walk.changed.length === 0) {
      return { text: existingText, changed: [], definition: current as WorkflowDefinition };
    }
    const after = printDocument(doc, style);
    // The file's own lines where nothing changed; failing that, yaml's printing of the whole edited document.
    for (const candidate of [mergeLines(text, before, after), after]) {
      const definition = readBack(candidate, target);
      if (definition === undefined) continue;
      const merged = bom + (crlf ? candidate.replace(/\n/g, '\r\n') : candidate);
      return { text: merged, changed: walk.changed, definition };
    }
    return rewritten(walk.changed, 'the edited file did not read back as the service holds it');
  } catch (error) {
    if (!(error instanceof UnmergeableError)) throw error;
    return rewritten(walk.changed, error.message);
  }
}

/**
 * The file's document as the definition loader reads it, with the value it holds, or undefined when it is not a
 * clean mapping or nests deeper than the loader allows (aliases counted where they are used, as the loader does):
 * the walks of merge-nodes.ts recurse.
 */
function readDocument(text: string): { doc: Document.Parsed; value: unknown } | undefined {
  const parsed = parseTokens(text, DEFAULT_LOAD_LIMITS.maxDepth);
  if ('tooDeepAt' in parsed) return undefined;
  const { doc, nextDocumentAt } = compose(parsed.tokens, text.length);
  if (doc.errors.length > 0 || nextDocumentAt !== undefined || !yamlLib().isMap(doc.contents))
    return undefined;
  let value: unknown;
  try {
    value = doc.toJS();
  } catch {
    // What composing does not check: a merge key (`<<`) whose value is not a mapping, too many aliases.
    return undefined;
  }
  return jsonDepthExceeds(value, DEFAULT_LOAD_LIMITS.maxDepth) ? undefined : { doc, value };
}

/** What `text` holds, when it reads as a definition that says what `target` says. */
function readBack(text: string, target: Json): WorkflowDefinition | undefined {
  const value = readDocument(text)?.value;
  return sameDeclared(value, target, WORKFLOW_SHAPE) ? (value as WorkflowDefinition) : undefined;
}

/**
 * The pulled definition names the group as the target's config does; when the file's own way of naming it
 * resolves to the very group the service holds, the file's way stays (`group:transactional` is not replaced by an
 * omission that means the same id).
 */
function withKeptGroup(pulled: Json, current: unknown, options: PullMergeOptions): Json {
  const { existingGroupId, serviceGroupId } = options;
  if (existingGroupId === undefined || existingGroupId !== serviceGroupId || !isRecord(current))
    return pulled;
  const { notificationGroupId: _, ...rest } = pulled;
  const kept = current.notificationGroupId;
  return kept === undefined ? rest : { ...rest, notificationGroupId: kept };
}
