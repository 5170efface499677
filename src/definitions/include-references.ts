/**
 * Where a definition value holds file references (`content: {file: ./order-shipped.email.html}`), the value with
 * their text put in, and how a file's text becomes a value and back. Pure: shared by the loader (includes.ts) and by
 * `pull`, which writes the text back.
 */
import { joinPointer, splitPointer } from '../diagnostic.js';
import { isRecord } from '../json.js';
import type { LoadedDefinition } from './types.js';

/** How an included file is written, so that `pull` writes it back the same way. */
export interface IncludeStyle {
  bom: boolean;
  crlf: boolean;
}

/** The template fields that may hold a reference. */
export const INCLUDE_FIELDS = ['content', 'subject', 'title'] as const;

export interface IncludeReference {
  /** Pointer of the template field holding the reference (`/steps/0/template/content`). */
  pointer: string;
  /** The path as written (`./order-shipped.email.html`). */
  path: string;
}

export interface ResolvedInclude extends IncludeReference {
  /** The file read (absolute). */
  absolute: string;
  /** The file as reports name it: relative to the working directory, `/` separators. */
  file: string;
  /** What replaced the reference: the file's text, BOM dropped, CRLF read as LF, one final line break dropped. */
  text: string;
  style: IncludeStyle;
}

/** A definition whose references were resolved, with where each text came from (for `pull` to write it back). */
export interface DefinitionWithIncludes extends LoadedDefinition {
  includes: readonly ResolvedInclude[];
}

/** The references a definition resolved (in findIncludeReferences' order); none for a definition without any. */
export function includesOf(definition: LoadedDefinition): readonly ResolvedInclude[] {
  return (definition as Partial<DefinitionWithIncludes>).includes ?? [];
}

/**
 * The include whose text is the value at `pointer` (a template field), or undefined. Pure, so that the rules can
 * place a finding inside the included file (validate/rules/string-span.ts).
 */
export function includeAt(definition: LoadedDefinition, pointer: string): ResolvedInclude | undefined {
  const includes = includesOf(definition);
  // Almost every definition has none: no search then.
  return includes.length === 0 ? undefined : includes.find((include) => include.pointer === pointer);
}

/**
 * Every reference in a definition value, step by step (each step before its variants; content, subject, title): a
 * field of a step's (or a variant's) template that is exactly `{file: "<non-empty path>"}`. Anything else shaped
 * like one (`{file: 1}`, `{fiel: …}`, extra keys) is left for the schema to report.
 */
export function findIncludeReferences(value: unknown): IncludeReference[] {
  const references: IncludeReference[] = [];
  const visitSteps = (steps: unknown, at: string): void => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step: unknown, i) => {
      if (!isRecord(step)) return;
      const pointer = joinPointer(at, i);
      const template = step.template;
      if (isRecord(template)) {
        for (const field of INCLUDE_FIELDS) {
          const file = referencedPath(template[field]);
          if (file !== undefined)
            references.push({ pointer: joinPointer(pointer, 'template', field), path: file });
        }
      }
      visitSteps(step.variants, joinPointer(pointer, 'variants'));
    });
  };
  if (isRecord(value)) visitSteps(value.steps, '/steps');
  return references;
}

/** A copy of `value` with each value put at its pointer (whose parent must exist). */
export function replaceIncludes(
  value: unknown,
  replacements: ReadonlyArray<{ pointer: string; value: unknown }>,
): unknown {
  if (replacements.length === 0) return value;
  const copy: unknown = structuredClone(value);
  for (const replacement of replacements) {
    const segments = splitPointer(replacement.pointer);
    const last = segments.pop();
    let node: unknown = copy;
    for (const segment of segments) {
      node = isRecord(node) ? node[segment] : Array.isArray(node) ? node[Number(segment)] : undefined;
    }
    if (last !== undefined && isRecord(node)) node[last] = replacement.value;
  }
  return copy;
}

/**
 * The text as a template value: CRLF read as LF (as YAML reads line breaks, so a Windows checkout plans the same)
 * and one final line break dropped (editors add one; a subject must not end with it). `formatIncludeText` undoes it.
 */
export function normalizeIncludeText(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** The bytes' text for a value: what `pull` writes, so that reading it back gives `text` exactly. */
export function formatIncludeText(text: string, style: { bom: boolean; crlf: boolean }): string {
  const lines = `${text}\n`;
  return (style.bom ? '\uFEFF' : '') + (style.crlf ? lines.replace(/\n/g, '\r\n') : lines);
}

/**
 * Whether a file can hold `text` so that reading it back gives `text` exactly: not when it holds a carriage return
 * (read as part of a line break) or starts with a byte order mark (dropped on reading). Such text stays inline.
 */
export function fitsInFile(text: string): boolean {
  return !text.includes('\r') && !text.startsWith('\uFEFF');
}

function referencedPath(field: unknown): string | undefined {
  if (!isRecord(field)) return undefined;
  const file = field.file;
  return Object.keys(field).length === 1 && typeof file === 'string' && file !== '' ? file : undefined;
}
