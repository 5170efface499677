/**
 * Long template text in a file of its own: a step template's `content`, `subject` or `title` may be written as
 * `{file: ./order-shipped.email.html}`, a path relative to the definition's directory. The reference is resolved
 * when the definition is loaded: the file's text replaces it in the value, so the schema, the rules, plan bodies,
 * hashes and diffs all see the text, and an edit to the file alone changes the plan. Problems are diagnostics at
 * the reference (the `file:` path); findings inside the text (a Handlebars error, a variable use) point into the
 * included file (validate/rules/string-span.ts), whose text then travels with them for code frames.
 */
import path from 'node:path';
import { type Diagnostic, displayPath, joinPointer, sortDiagnostics } from '../diagnostic.js';
import { type FsBoundary, workingBoundary } from '../fs-boundary.js';
import { type IncludeRead, type IncludeRequest, readIncludeFile } from './include-file.js';
import {
  type DefinitionWithIncludes,
  findIncludeReferences,
  type ResolvedInclude,
  replaceIncludes,
} from './include-references.js';
import { DEFAULT_LOAD_LIMITS } from './limits.js';
import type { ParseResult } from './types.js';

export interface IncludeOptions {
  /** Absolute path of the definition file. */
  definitionPath: string;
  /** Largest included file, in bytes (default: the definition file limit, 1 MiB). */
  maxBytes?: number;
  /** What included files are read through (default: the working directory's boundary). */
  boundary?: FsBoundary | undefined;
  /** Reads one included file instead of the file system (`plan --base`: the texts of a git commit). */
  readInclude?: ((request: IncludeRequest) => IncludeRead) | undefined;
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
  const boundary = options.boundary ?? workingBoundary();
  const reads = new Map<string, IncludeRead>();
  const includes: ResolvedInclude[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const reference of references) {
    const file = includeDisplayPath(definition.file, reference.path);
    const key = path.resolve(definitionDir, reference.path);
    let read = reads.get(key);
    if (read === undefined) {
      read = (options.readInclude ?? readIncludeFile)({
        written: reference.path,
        display: file,
        definitionDir,
        boundary,
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

/** How reports name an included file: the path as written, from the definition's display path (`/` separators). */
export function includeDisplayPath(definitionFile: string, written: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(definitionFile), written));
}

/** An included file's text under its display path: a code frame's source for a finding inside it. */
export interface IncludedText {
  file: string;
  text: string;
}

/**
 * The texts among `includes` (a definition's, as includesOf lists them) that findings of the definition at
 * `definitionFile` point into, each file once, in include order: what a report needs besides the definition's own
 * text to frame them. None for the usual definition (no such finding).
 */
export function includedTextsFor(
  definitionFile: string,
  diagnostics: readonly Diagnostic[],
  includes: Iterable<IncludedText>,
): IncludedText[] {
  const named = new Set<string>();
  for (const d of diagnostics) if (d.includedBy === definitionFile) named.add(d.file);
  if (named.size === 0) return [];
  const texts: IncludedText[] = [];
  for (const { file, text } of includes) if (named.delete(file)) texts.push({ file, text });
  return texts;
}

function textOf(result: ParseResult): { text?: string } {
  return result.text === undefined ? {} : { text: result.text };
}
