import type { Diagnostic, Span } from '../diagnostic.js';

/** One workflow definition file, parsed, with its source kept so every pointer maps back to a position. */
export interface LoadedDefinition {
  /** Display path (relative to the working directory, `/` separators). */
  file: string;
  /** The file's text (UTF-8 decoded, BOM removed). */
  text: string;
  /** The document as plain JSON data (aliases resolved, no YAML node objects). */
  value: unknown;
  /** Position of the node at a JSON pointer; for a missing node, the nearest existing ancestor. Pure. */
  locate(pointer: string, target?: 'value' | 'key'): Span;
}

export interface ParseResult {
  /** Absent when the file could not be turned into a document at all (syntax error, empty, too big…). */
  definition?: LoadedDefinition;
  diagnostics: Diagnostic[];
  /**
   * The decoded text whenever the bytes were UTF-8, also when the YAML is broken, so reports can show a code frame
   * for a syntax error too. Absent for a file too large to decode or not UTF-8.
   */
  text?: string;
}
