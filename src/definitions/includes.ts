/**
 * Long template text in a file of its own: a step template's `content`, `subject` or `title` may be written as
 * `{file: ./order-shipped.email.html}`, a path relative to the definition's directory. The reference is resolved
 * when the definition is loaded: the file's text replaces it in the value, so the schema, the rules, plan bodies,
 * hashes and diffs all see the text, and an edit to the file alone changes the plan. Problems are diagnostics at
 * the reference (the `file:` path).
 */
import path from 'node:path';
import { type Diagnostic, joinPointer, sortDiagnostics, splitPointer } from '../diagnostic.js';
import {
  findIncludeRoot,
  type IncludeRead,
  type IncludeRoot,
  type IncludeStyle,
  readIncludeFile,
} from './include-file.js';
import { findIncludeReferences, type IncludeReference, replaceIncludes } from './include-references.js';
import { DEFAULT_LOAD_LIMITS } from './limits.js';
import type { LoadedDefinition, ParseResult } from './types.js';

export { findIncludeRoot, type IncludeRoot, type IncludeStyle } from './include-file.js';
export {
  fileReference,
  findIncludeReferences,
  fitsInFile,
  formatIncludeText,
  INCLUDE_FIELDS,
  type IncludeReference,
  normalizeIncludeText,
  replaceIncludes,
} from './include-references.js';

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

export interface IncludeOptions {
  /** Absolute path of the definition file. */
  definitionPath: string;
  /** Where included files must stay; default: findIncludeRoot (project, else git repository, else the file's dir). */
  root?: IncludeRoot;
  /** Largest included file, in bytes (default: the definition file limit, 1 MiB). */
  maxBytes?: number;
}

/** The references a definition resolved (in findIncludeReferences' order); none for a definition without any. */
export function includesOf(definition: LoadedDefinition): readonly ResolvedInclude[] {
  return (definition as Partial<DefinitionWithIncludes>).includes ?? [];
}

/**
 * Resolves every reference of a parsed definition file. A file without references comes back as it was (nothing
 * read). When a reference cannot be resolved the definition is dropped, like one with a YAML error: its schema and
 * rules would be checked against text that is not there. The file's text stays, for code frames.
 */
export function readDefinitionIncludes(result: ParseResult, options: IncludeOptions): ParseResult {
  const definition = result.definition;
  if (definition === undefined) return result;
  const references = findIncludeReferences(definition.value);
  if (references.length === 0) return result;

  const definitionDir = path.dirname(options.definitionPath);
  const root = options.root ?? findIncludeRoot(definitionDir);
  const reads = new Map<string, IncludeRead>();
  const includes: ResolvedInclude[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const reference of references) {
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(definition.file), reference.path));
    const key = path.resolve(definitionDir, reference.path);
    let read = reads.get(key);
    if (read === undefined) {
      read = readIncludeFile({
        written: reference.path,
        display: file,
        definitionDir,
        root,
        maxBytes: options.maxBytes ?? DEFAULT_LOAD_LIMITS.maxBytes,
      });
      reads.set(key, read);
    }
    if (read.ok) {
      includes.push({ ...reference, absolute: read.absolute, file, text: read.text, style: read.style });
      continue;
    }
    const pointer = joinPointer(reference.pointer, 'file');
    diagnostics.push({
      code: read.code,
      severity: 'error',
      message: `${displayPath(reference.pointer)}: ${read.message}`,
      file: definition.file,
      pointer,
      ...definition.locate(pointer, 'value'),
    });
  }
  if (diagnostics.length > 0) {
    return { diagnostics: sortDiagnostics([...result.diagnostics, ...diagnostics]), ...textOf(result) };
  }
  const resolved: DefinitionWithIncludes = {
    ...definition,
    value: replaceIncludes(
      definition.value,
      includes.map(({ pointer, text }) => ({ pointer, value: text })),
    ),
    includes,
  };
  return { ...result, definition: resolved };
}

function textOf(result: ParseResult): { text?: string } {
  return result.text === undefined ? {} : { text: result.text };
}

/** `/steps/0/variants/1/template/content` → `steps[0].variants[1].template.content`. */
function displayPath(pointer: string): string {
  return splitPointer(pointer)
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
}
