import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import type { CheckedDefinition } from '../check/check-definitions.js';
import type { Diagnostic } from '../diagnostic.js';
import { buildCreateBody, canonicalJson } from '../plan/index.js';
import type { DesiredWorkflow } from '../plan/types.js';
import type { GroupResolution } from './target-session.js';

const GROUP_REFERENCE = /^group:(.+)$/;

/** Every `group:<name>` the definitions reference. */
export function referencedGroups(definitions: readonly CheckedDefinition[]): string[] {
  const names = new Set<string>();
  for (const d of definitions) {
    const id = d.workflow.notificationGroupId;
    const match = id === undefined ? null : GROUP_REFERENCE.exec(id);
    if (match?.[1]) names.add(match[1]);
  }
  return [...names].sort();
}

/** `sha256:<hex>` of the canonical JSON of a create body: what state records and plans compare. */
export function hashBody(body: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`;
}

/**
 * Turn valid definitions into what will be sent to this target. Every unresolvable group is a Diagnostic, so all of
 * them are reported before any request is made.
 */
export function buildDesired(
  definitions: readonly CheckedDefinition[],
  groups: GroupResolution,
): { desired: DesiredWorkflow[]; diagnostics: Diagnostic[] } {
  const desired: DesiredWorkflow[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const d of definitions) {
    const definition = d.workflow;
    const built = buildCreateBody(definition, groups);
    if ('problem' in built) {
      // A missing group is the workflow's problem as a whole: point at its name rather than underline every line.
      const declared = definition.notificationGroupId !== undefined;
      const pointer = declared ? '/notificationGroupId' : '';
      diagnostics.push({
        code: 'notification-group-unresolved',
        severity: 'error',
        message: built.problem,
        file: d.file,
        pointer,
        ...(declared ? d.locate(pointer) : d.locate('/name', 'key')),
      });
      continue;
    }
    desired.push({
      identifier: d.identifier,
      file: d.file,
      definition,
      body: built.body,
      hash: hashBody(built.body),
    });
  }
  return { desired, diagnostics };
}

/** `--only` patterns: an identifier, or a glob over identifiers or file paths (`order-*`, `workflows/billing/**`). */
export function buildOnlyFilter(
  patterns: readonly string[] | undefined,
): ((identifier: string, file?: string) => boolean) | undefined {
  if (!patterns || patterns.length === 0) return undefined;
  const matchers = patterns.map((p) => picomatch(p, { dot: true }));
  return (identifier, file) => matchers.some((m) => m(identifier) || (file !== undefined && m(file)));
}
