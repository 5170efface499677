/**
 * The renderer's findings as Diagnostics with file:line:col: the pointer into the definition, and the offsets inside
 * the template string when the renderer knows them (in the included file when the template is one).
 */
import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import type { RenderFinding } from '../render/index.js';
import { locateInString } from '../validate/rules/string-span.js';

export function findingsToDiagnostics(
  definition: LoadedDefinition,
  findings: readonly RenderFinding[],
): Diagnostic[] {
  return findings.map((finding) => {
    const span =
      finding.start === undefined
        ? definition.locate(finding.pointer, 'value')
        : locateInString(
            definition,
            finding.pointer,
            finding.start,
            Math.max(1, (finding.end ?? finding.start + 1) - finding.start),
          );
    const { file, includedAt: _at, ...position } = { file: undefined, includedAt: undefined, ...span };
    return {
      code: finding.code,
      severity: finding.severity,
      message: finding.message,
      file: file ?? definition.file,
      pointer: finding.pointer,
      line: position.line,
      column: position.column,
      endLine: position.endLine,
      endColumn: position.endColumn,
      ...(file === undefined ? {} : { includedBy: definition.file }),
    };
  });
}
