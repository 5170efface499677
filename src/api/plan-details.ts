import type { CheckedDefinition } from '../check/check-definitions.js';
import { documentLines } from '../definitions/document-lines.js';
import { referencedGroups } from '../plan/desired.js';
import { buildCreatePreview } from '../plan/preview.js';
import { buildRenderedChanges } from '../plan/rendered-changes.js';
import { buildStepFlow } from '../plan/step-flow.js';
import { withStepNames } from '../plan/step-names.js';
import { type DesiredWorkflow, isDiffering, type Plan } from '../plan/types.js';
import { withFileDiff } from '../pull/file-diff.js';
import type { TargetSession } from '../remote/index.js';

/**
 * What a reviewer reads beside each decision, added once the plan is built: a differing workflow's diff on its file's
 * own lines (pull/file-diff.ts) with the line of its first change, its steps named in the changes' paths
 * (plan/step-names.ts), a create's line (where its definition starts and ends in the file) and what each create
 * will make (plan/preview.ts); with `previews` (a reader's plan, not a
 * sync's), each created or differing workflow's steps as a flow (plan/step-flow.ts, the flowchart) and a differing
 * one's changed messages rendered on both sides (plan/rendered-changes.ts).
 * Pure given its inputs; the groups are the target's, as `pull` resolves them.
 */
export function addPlanDetails(
  plan: Plan,
  input: {
    definitions: readonly CheckedDefinition[];
    desired: readonly DesiredWorkflow[];
    session: TargetSession;
    previews: boolean;
  },
): Plan {
  const key = (identifier: string, file: string | undefined) => `${file ?? ''}\0${identifier}`;
  const definitions = new Map(input.definitions.map((d) => [key(d.identifier, d.file), d]));
  const desired = new Map(input.desired.map((d) => [key(d.identifier, d.file), d]));
  let groups: ReturnType<TargetSession['groups']> | undefined;
  const groupsOf = () => {
    groups ??= input.session.groups([
      ...new Set([
        ...Object.keys(input.session.target.notificationGroups),
        ...referencedGroups(input.definitions),
      ]),
    ]);
    return groups;
  };
  const items = plan.items.map((item) => {
    const at = key(item.identifier, item.file);
    if (item.action === 'create') {
      // Where the definition is in its file: a create makes all of it.
      const text = definitions.get(at)?.text;
      const span = text === undefined ? undefined : documentLines(text);
      const placed = span === undefined ? item : { ...item, line: span.line, endLine: span.endLine };
      if (!input.previews) return placed;
      const wanted = desired.get(at);
      if (wanted === undefined) return placed;
      const flow = buildStepFlow(item.identifier, wanted.definition);
      return { ...placed, preview: buildCreatePreview(wanted), flow };
    }
    // Only a differing workflow has changes (an in-sync one compared equal).
    if (!isDiffering(item)) return item;
    const shown = withFileDiff(item, definitions.get(at), groupsOf());
    const wanted = desired.get(at);
    if (wanted === undefined) return shown;
    const named = { ...shown, changes: withStepNames(shown.changes, wanted.definition) };
    if (!input.previews) return named;
    const flow = buildStepFlow(item.identifier, wanted.definition, item.changes);
    const rendered = buildRenderedChanges(wanted.definition, item.changes);
    return { ...named, flow, ...(rendered === undefined ? {} : { rendered }) };
  });
  return { ...plan, items };
}
