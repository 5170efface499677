/** PURE: valid definitions → what will be sent to one target (group references resolved), and `--only`. */
import type picomatchType from 'picomatch';
import type { CheckedDefinition } from '../check/check-definitions.js';
import { onFirstUse } from '../derive/first-use.js';
import type { Diagnostic } from '../diagnostic.js';
import { buildCreateBody, type TargetGroups } from './create-body.js';
import type { CreateWorkflowBody, DesiredWorkflow } from './types.js';

/** picomatch, loaded for `--only` alone: a plan or sync without it never needs it. */
const picomatch = onFirstUse<typeof picomatchType>('picomatch');

const GROUP_REFERENCE = /^group:(.+)$/;

/** Every `group:<name>` the definitions reference. */
export function referencedGroups(definitions: readonly CheckedDefinition[]): string[] {
  const names = new Set<string>();
  for (const d of definitions) {
    const match = GROUP_REFERENCE.exec(d.workflow.notificationGroupId ?? '');
    if (match?.[1]) names.add(match[1]);
  }
  return [...names].sort();
}

/**
 * Turn valid definitions into what will be sent to this target. Every unresolvable group is a Diagnostic, so all of
 * them are reported before any request is made. `hash` is the body hash state records (cache/hash.ts: hashBody),
 * passed in so this stays pure.
 */
export function buildDesired(
  definitions: readonly CheckedDefinition[],
  groups: TargetGroups,
  hash: (body: CreateWorkflowBody) => string,
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
      hash: hash(built.body),
    });
  }
  return { desired, diagnostics };
}

/** `--only` patterns: an identifier, or a glob over identifiers or file paths (`order-*`, `workflows/billing/**`). */
export function buildOnlyFilter(
  patterns: readonly string[] | undefined,
): ((identifier: string, file?: string) => boolean) | undefined {
  if (!patterns || patterns.length === 0) return undefined;
  const matchers = patterns.map((p) => picomatch()(p, { dot: true }));
  return (identifier, file) => matchers.some((m) => m(identifier) || (file !== undefined && m(file)));
}
