/**
 * Text for an edited YAML document that differs from the file only where the document was edited. yaml prints a
 * document from its nodes, not from the file's text, so even untouched lines can come out spelled differently
 * (`[a, b]` → `[ a, b ]`, another indent). The file's own indentation is detected and used, and the remaining
 * differences are undone by a three-way merge of lines: where yaml's printing of the edited document matches its
 * printing of the untouched one, the file's own lines are kept. Pure.
 */
import type * as Diff from 'diff';
import type { Document, ToStringOptions } from 'yaml';
import { yamlLib } from '../definitions/yaml-lib.js';
import { onFirstUse } from '../derive/first-use.js';

/** jsdiff, loaded the first time a diff is made: a plan with nothing differing never needs it. */
const diffLib = onFirstUse<typeof Diff>('diff');

/** How the file is laid out, as far as yaml's printer can follow it. */
export interface FileStyle {
  options: ToStringOptions;
  /** Spaces inside flow braces (`{ a: 1 }`) and brackets (`[ a ]`), when the file has such collections. */
  padding: { map?: boolean; seq?: boolean };
}

export function detectStyle(doc: Document, text: string): FileStyle {
  // Never fold long lines or break "a\nb" over lines: that would rewrap text nobody changed.
  const options: ToStringOptions = { lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER };
  const padding: FileStyle['padding'] = {};
  // 1-based (only differences between columns are used).
  const column = (offset: number) => offset - text.lastIndexOf('\n', offset - 1);
  yamlLib().visit(doc, {
    Pair(_key, pair) {
      const { key, value } = pair;
      if (
        !yamlLib().isNode(key) ||
        !key.range ||
        !yamlLib().isCollection(value) ||
        value.flow ||
        !value.range
      )
        return;
      const first = value.items[0];
      if (
        yamlLib().isMap(value) &&
        options.indent === undefined &&
        yamlLib().isPair(first) &&
        yamlLib().isNode(first.key) &&
        first.key.range
      ) {
        const indent = column(first.key.range[0]) - column(key.range[0]);
        if (indent > 0) options.indent = indent;
      }
      // A block sequence under a key, its dashes indented or level with the key.
      if (yamlLib().isSeq(value) && options.indentSeq === undefined) {
        options.indentSeq = column(value.range[0]) > column(key.range[0]);
      }
    },
  });
  yamlLib().visit(doc, (_key, node) => {
    if (!yamlLib().isCollection(node) || !node.flow || node.items.length === 0 || !node.range) return;
    const kind = yamlLib().isMap(node) ? 'map' : 'seq';
    padding[kind] ??= text[node.range[0] + 1] === ' ';
  });
  return { options, padding };
}

/**
 * The document printed the way the file is written. yaml pads all flow collections or none, while files often
 * write `tags: [a, b]` beside `- { name: x }`: each line is taken from the printing whose padding suits the first
 * flow collection on it (the two printings differ only in spaces, so line for line).
 */
export function printDocument(doc: Document, style: FileStyle): string {
  const tight = doc.toString({ ...style.options, flowCollectionPadding: false }).split('\n');
  const padded = doc.toString({ ...style.options, flowCollectionPadding: true }).split('\n');
  const { map, seq } = style.padding;
  return tight
    .map((line, i) => {
      // yaml breaks a flow collection over lines for comments or width, never for padding: the same lines.
      const other = padded[i] ?? line;
      if (line === other) return line;
      let k = 0;
      while (line[k] === other[k]) k++;
      // The first difference is the space padding puts after the first non-empty collection's opener.
      const wanted = line[k - 1] === '{' ? (map ?? seq ?? true) : (seq ?? map ?? true);
      return wanted ? other : line;
    })
    .join('\n');
}

/**
 * `original` changed the way `before` became `after` (two printings of one document, before and after editing): a
 * three-way merge of lines. Where yaml's printing differs from the file (`before` → `original`), the file's lines
 * are kept; where the edit changed the printing (`before` → `after`), the edited lines are used; where both touch
 * the same lines, the edit wins (the caller checks that the result still reads right).
 */
export function mergeLines(original: string, before: string, after: string): string {
  const b = before.split('\n');
  const hunks = [
    ...hunksBetween(b, original.split('\n'), false),
    ...hunksBetween(b, after.split('\n'), true),
  ].sort((x, y) => x.start - y.start || x.end - y.end);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < hunks.length; ) {
    const group = [hunks[i++]!];
    let start = group[0]!.start;
    let end = group[0]!.end;
    for (let next = hunks[i]; next !== undefined && overlaps(next, start, end); next = hunks[++i]) {
      group.push(next);
      start = Math.min(start, next.start);
      end = Math.max(end, next.end);
    }
    out.push(...b.slice(at, start));
    const edits = group.filter((hunk) => hunk.edit);
    // Only the file differs here: its own lines. Otherwise the edited printing of the stretch.
    let cursor = start;
    for (const hunk of edits.length === 0 ? group : edits) {
      out.push(...b.slice(cursor, hunk.start), ...hunk.lines);
      cursor = hunk.end;
    }
    out.push(...b.slice(cursor, end));
    at = end;
  }
  out.push(...b.slice(at));
  return out.join('\n');
}

/** `before` lines [start, end) are `lines` in the other text. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
  /** From the edit (`before` → `after`), else from the file (`before` → `original`). */
  edit: boolean;
}

function hunksBetween(before: string[], other: string[], edit: boolean): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | undefined;
  for (const change of diffLib().diffArrays(before, other)) {
    if (!change.added && !change.removed) {
      open = undefined;
      at += change.count;
      continue;
    }
    if (open === undefined) {
      open = { start: at, end: at, lines: [], edit };
      hunks.push(open);
    }
    if (change.removed) {
      at += change.count;
      open.end = at;
    } else {
      open.lines.push(...change.value);
    }
  }
  return hunks;
}

/**
 * Two changes collide when they share a line of `before`, or insert at the same place, or one inserts inside the
 * other. Changes that only touch (one ends where the other starts) apply side by side. Hunks come sorted by start,
 * then end: `hunk` starts no earlier than the group [start, end), and an insert comes before a change at its place.
 */
function overlaps(hunk: Hunk, start: number, end: number): boolean {
  return start === end ? hunk.end === start : hunk.start < end;
}
