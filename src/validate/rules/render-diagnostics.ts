/**
 * The renderer's findings as Diagnostics of a loaded definition: positioned at file:line:col inside the template
 * string (in the included file when the string is one), for validate's render rules and for `wfsync preview`.
 */
import type { LoadedDefinition } from '../../definitions/types.js';
import type { Diagnostic, Severity, Span } from '../../diagnostic.js';
import type { RenderFinding } from '../../render/index.js';
import { locateInString } from './string-span.js';
import type { IncludedSpan, SeverityOverride } from './types.js';
import { displayPath } from './walk.js';

/** Where a finding is: the characters it names inside its string, else the whole value at its pointer. */
export function locateFinding(definition: LoadedDefinition, finding: RenderFinding): Span | IncludedSpan {
  if (finding.start === undefined) return definition.locate(finding.pointer, 'value');
  const length = Math.max(1, (finding.end ?? finding.start + 1) - finding.start);
  return locateInString(definition, finding.pointer, finding.start, length);
}

/** The message a finding reads with, naming the field it is in (`steps[0].template.content: …`). */
export function findingMessage(finding: RenderFinding): string {
  return `${displayPath(finding.pointer)}: ${finding.message}`;
}

/**
 * Each finding as a Diagnostic of `definition` (severities from `options.severities` by code, `off` dropping it),
 * in the findings' order. A finding inside an included file names that file, with the definition in `includedBy`.
 */
export function renderFindingsToDiagnostics(
  definition: LoadedDefinition,
  findings: readonly RenderFinding[],
  options: { severities?: Record<string, SeverityOverride> } = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const finding of findings) {
    const override = options.severities?.[finding.code];
    if (override === 'off') continue;
    const severity: Severity = override ?? finding.severity;
    const span = locateFinding(definition, finding);
    const base = { code: finding.code, severity, message: findingMessage(finding), pointer: finding.pointer };
    if ('includedAt' in span) {
      const { file, includedAt: _, ...at } = span;
      out.push({ ...base, file, ...at, includedBy: definition.file });
    } else {
      out.push({ ...base, file: definition.file, ...span });
    }
  }
  return out;
}
