/** The one sentence each plan item ends with: what sync will do, or exactly what a person should run. Pure. */
import type { FieldChange } from './types.js';

const code = (text: string): string => `\`${text}\``;

export const NEXT = {
  create: (): string => 'sync will create it.',
  inSync: (): string => 'nothing to do.',
  inSyncNewHash: (): string =>
    'nothing to change on the service (it already matches the changed file): sync will record the new hash in state.',
  inSyncAdopt: (): string =>
    'the service already has it as the file says: sync will record it in state without creating it.',
  inSyncReplaced: (staleId: string, id: string): string =>
    `the recorded workflow ${staleId} is gone, but ${id} matches the file: sync will record ${id} in state.`,
  drifted: (identifier: string): string =>
    `the service's workflow was changed (in the dashboard?): ${code(`wfsync pull ${identifier}`)} to accept it ` +
    'into the file, or change it back on the service; wfsync cannot update workflows.',
  changedLocally: (identifier: string): string =>
    'the file changed since the workflow was created, and the service offers no update: apply the change in the ' +
    `dashboard and run ${code(`wfsync pull ${identifier}`)}, or create it as a new workflow under a new name.`,
  missingRemotely: (identifier: string, staleId: string, file: string): string =>
    `the service has no workflow ${staleId} any more (deleted in the dashboard?): run ` +
    `${code(`wfsync state forget ${identifier}`)} and sync will create it again, or delete ${file} if it should ` +
    'stay deleted.',
  conflict: (identifier: string): string =>
    `the service already has a workflow ${code(identifier)} that was not created from this file: ` +
    `${code(`wfsync pull ${identifier}`)} to adopt the service's version, or rename the workflow to create a new one.`,
  orphaned: (identifier: string): string =>
    'no definition has this identifier any more, and the API cannot delete workflows: delete it in the ' +
    `dashboard, then run ${code(`wfsync state forget ${identifier}`)}.`,
  orphanedGone: (identifier: string): string =>
    `no definition has this identifier and the service no longer has it: run ${code(`wfsync state forget ${identifier}`)}.`,
  error: (): string =>
    'nothing will be created or recorded for it: run the plan again once the service answers.',
  duplicate: (): string =>
    'rename all but one of these workflows (name and identifier): one identifier cannot name two workflows.',
};

/**
 * When the service's identifier is the file's plus `-<suffix>`, it created this workflow while the identifier was
 * taken: a duplicate exists. Said first, because it changes what the person should do.
 */
export function duplicateNote(identifier: string, changes: readonly FieldChange[]): string | undefined {
  const actual = changes.find((c) => c.path === 'triggers[0].identifier')?.actual;
  if (typeof actual !== 'string' || !actual.startsWith(`${identifier}-`)) return undefined;
  return (
    `the service holds it as ${code(actual)}: it was created while ${code(identifier)} was taken, so the ` +
    'service has a duplicate (delete one in the dashboard).'
  );
}
