import { parseDefinition } from '../../../src/definitions/parse.js';
import type { LoadedDefinition } from '../../../src/definitions/types.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import type { TargetGroups } from '../../../src/plan/create-body.js';
import type { FieldChange } from '../../../src/plan/types.js';
import { bodyOf, desiredOf, GROUPS, storedFor } from '../plan/helpers.js';

/** The file's text as wfsync loads it (the BOM dropped, line breaks kept), or a failed test. */
export function loaded(file: string, text: string): LoadedDefinition {
  const parsed = parseDefinition(file, new TextEncoder().encode(text));
  if (!parsed.definition) throw new Error(`${file} does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  return parsed.definition;
}

/**
 * What plan compares for a file whose workflow the service holds as `service` says: the changes (service → file)
 * and the service's name. `service` edits a copy of the file's definition.
 */
export function compared(
  definition: LoadedDefinition,
  service: (def: WorkflowDefinition) => void,
  groups: TargetGroups = GROUPS,
): { changes: FieldChange[]; serviceName: string; stored: ReturnType<typeof storedFor> } {
  const own = definition.value as WorkflowDefinition;
  const held = structuredClone(own);
  service(held);
  const stored = storedFor(bodyOf(held, groups));
  const { changes } = compareWorkflow(desiredOf(own, { file: definition.file, groups }), stored);
  return { changes, serviceName: stored.name, stored };
}

/** The file's lines as an editor numbers them: split at line feeds, a CR before one and a leading BOM not shown. */
export function fileLines(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.replace(/\r$/, ''));
}

interface ParsedHunk {
  newStart: number;
  newLines: number;
  /** Context and `+` lines, each with its line number in the file. */
  fileSide: Array<{ line: number; text: string }>;
}

/** The hunks of a unified diff, with the lines its `+` side claims the file has. */
export function hunksOf(diff: string): ParsedHunk[] {
  const hunks: Array<ParsedHunk & { at: number }> = [];
  let current: (ParsedHunk & { at: number }) | undefined;
  for (const line of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@$/.exec(line);
    if (header) {
      const newLines = header[2] === undefined ? 1 : Number(header[2]);
      const newStart = Number(header[1]);
      current = { newStart, newLines, fileSide: [], at: newLines === 0 ? newStart + 1 : newStart };
      hunks.push(current);
      continue;
    }
    if (current === undefined) continue;
    if (line.startsWith('+') || line.startsWith(' ')) {
      current.fileSide.push({ line: current.at, text: line.slice(1) });
      current.at++;
    }
  }
  return hunks.map(({ at: _, ...hunk }) => hunk);
}
