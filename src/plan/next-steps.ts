/**
 * The one sentence each plan item ends with: what sync will do, or exactly what a person should run. Every command
 * named is the one this run would have to be repeated with (its target, config and state file: command-line.ts), and
 * "sync" alone stands for `wfsync sync` only when that bare command is the exact one. Pure.
 */
import { commandLine, needsExactCommand, type RunContext } from './command-line.js';
import type { FieldChange } from './types.js';

const code = (text: string): string => `\`${text}\``;

export type NextSteps = ReturnType<typeof buildNextSteps>;

/** The sentences for a run: with no context (or the default target and files), the bare `wfsync <command>`. */
export function buildNextSteps(run?: RunContext) {
  const cli = (command: string, ...args: string[]) => code(commandLine(run, command, { args }));
  /** "sync", or the exact sync command when the bare one would act on another target or file. */
  const sync = needsExactCommand(run) ? cli('sync') : 'sync';
  return {
    create: (): string => `${sync} will create it.`,
    inSync: (): string => 'nothing to do.',
    inSyncNewHash: (): string =>
      `nothing to change on the service (it already matches the changed file): ${sync} will record the new hash in state.`,
    inSyncAdopt: (): string =>
      `the service already has it as the file says: ${sync} will record it in state without creating it.`,
    inSyncReplaced: (staleId: string, id: string): string =>
      `the recorded workflow ${staleId} is gone, but ${id} matches the file: ${sync} will record ${id} in state.`,
    /** The file did not change (since the workflow was created, or since the base): the service's workflow did. */
    drifted: (identifier: string, since: 'state' | 'base'): string =>
      `${since === 'base' ? 'this change does not touch the file' : 'the file has not changed since the workflow was created'}, ` +
      "but the service's workflow differs (edited in the dashboard?): accept it into the file with " +
      `${cli('pull', identifier)} in a change of its own, or change it back in the dashboard; sync never ` +
      "overwrites the service's workflow.",
    /** The file changed (since the workflow was created, or in this change); the service holds the version before. */
    changedLocally: (since: 'state' | 'base'): string =>
      `${since === 'base' ? "this change edits the file, and the service still holds the base's version" : 'the file changed since the workflow was created, and the service still holds that version'}, ` +
      'which sync cannot update: once the change is approved, make the same edit in the dashboard (sync then finds ' +
      'them equal and records it), or give the workflow a new name and identifier so sync creates it as a new one.',
    update: (): string => `${sync} will update it.`,
    /** Changed in the file only, but the target does not allow `update`. */
    changedLocallyNotAllowed: (since: 'state' | 'base'): string =>
      `${since === 'base' ? "this change edits the file, and the service still holds the base's version" : 'the file changed since the workflow was created, and the service still holds that version'}, ` +
      'but this target does not allow updates: allow them (`allow: [create, update]` under the target in the config, or `--allow update` for one run) and sync updates it, or, once the change is approved, make the same edit in the dashboard (sync then finds them equal and records it).',
    /** State has no version of the service's workflow to compare with. */
    changedLocallyNoVersion: (): string =>
      "the file changed since the workflow was created, but state recorded no version of the service's workflow (an entry from an older wfsync, `state rebuild` or `pull`), so wfsync cannot tell whether it was edited in the dashboard too: " +
      `run ${code(commandLine(run, 'plan', { tail: '--base <branch>' }))} to compare with the base branch (sync updates it when the service still holds the base's version), or make the same edit in the dashboard (sync then finds them equal and records it).`,
    /** The file changed, and the service's workflow moved since state recorded it. */
    changedBoth: (): string =>
      "the file changed since the workflow was created, and the service's workflow changed too since wfsync recorded it (edited in the dashboard?): " +
      "sync will not overwrite it; bring the dashboard's edits into the file (or undo them in the dashboard) until the service holds what the file had before, then sync updates it.",
    /** An earlier sync's update was interrupted, and the service holds neither the version before it nor the file. */
    interruptedUpdate: (): string =>
      "an earlier sync's update of it was interrupted, and the service now holds neither the version before it nor the file: " +
      'compare the diff and make the dashboard match the file (sync then finds them equal and records it).',
    /** What the service's update cannot reach: said before merge, so sync never sends a PUT that changes nothing. */
    updateBlocked: (why: string): string => `sync will not update it: ${why}.`,
    missingRemotely: (identifier: string, staleId: string, file: string): string =>
      `the service has no workflow ${staleId} any more (deleted in the dashboard?): run ` +
      `${cli('state forget', identifier)} and ${sync} will create it again, or delete ${file} if it should ` +
      'stay deleted.',
    /** `plan --base`: the file is new in this change, and the identifier is taken on the service by another version. */
    conflictNew: (identifier: string): string =>
      `this change adds the file, but the service already has a workflow ${code(identifier)} that differs from it: ` +
      "give this one a new name and identifier so sync creates it, or make the dashboard's workflow match the file " +
      "(sync then records it); sync never overwrites the service's workflow.",
    /** `plan --base`: the file changed in this change, and the service's workflow matches neither version. */
    conflictBoth: (): string =>
      "this change edits the file and the service's workflow was changed too (it matches neither the file nor the " +
      "base's version): reconcile them by hand, bringing the dashboard's edits into the file and the file's into the " +
      "dashboard until they match; sync never overwrites the service's workflow.",
    /** Neither state nor a base tells which side changed: say so, and how to know, without advice that loses either. */
    conflictUnknown: (identifier: string, why?: string): string =>
      `the service's workflow ${code(identifier)} differs from the file, and wfsync cannot tell whether the file or ` +
      `the service changed (${why ?? 'no state records it and no base was given'}): run ` +
      `${code(commandLine(run, 'plan', { tail: '--base <branch>' }))} (in a pull request, the base branch; CI sets GITHUB_BASE_REF), or ` +
      'commit the state file, to know; until then overwrite neither side.',
    /** The file was removed and the service holds the version wfsync knew (recorded, or the base's). */
    delete: (since: 'state' | 'base'): string =>
      `${since === 'base' ? "this change removes its file, and the service still holds the base's version" : 'no definition has this identifier any more, and the service still holds the version wfsync recorded'}: ` +
      `${sync} will delete it on the service${since === 'base' ? '' : ' and drop it from state'}.`,
    /** Delete allowed, and the service no longer has it (a crash after the DELETE, or a dashboard delete). */
    deleteGone: (): string =>
      `no definition has this identifier and the service no longer has it: ${sync} will drop it from state (nothing is sent).`,
    /** Delete allowed, but the service could not be asked for it: nothing decided. */
    orphaned: (identifier: string): string =>
      'no definition has this identifier any more, and the service could not be asked whether it still holds the ' +
      `version wfsync recorded: run the plan again, or delete it in the dashboard, then run ${cli('state forget', identifier)}.`,
    /** The target does not allow sync to delete: how to allow it, or do it by hand. */
    orphanedNotAllowed: (identifier: string): string =>
      `no definition has this identifier any more, and ${run === undefined ? 'the target' : `target ${code(run.target)}`} does not allow ` +
      `sync to delete: add \`delete\` to the target's \`allow\` in wfsync.config.yaml (or add \`--allow delete\` to the ` +
      `command) for sync to delete it, or delete it in the dashboard, then run ${cli('state forget', identifier)}.`,
    /** Delete allowed, but the service's copy changed since wfsync recorded it: never deleted without a person. */
    orphanedChanged: (identifier: string): string =>
      "no definition has this identifier any more, but the service's workflow changed since wfsync recorded it " +
      '(edited in the dashboard?), so sync will not delete it: a person decides. Delete it in the dashboard, then run ' +
      `${cli('state forget', identifier)}, or restore its file (and ${cli('pull', identifier)} the edit).`,
    /** Delete allowed, state recorded no version (an older wfsync) and no base tells: cannot know it is unchanged. */
    orphanedUnknown: (identifier: string): string =>
      'no definition has this identifier any more, and state recorded no version of it (an older wfsync made the ' +
      "entry), so wfsync cannot tell whether the service's workflow changed since: it will not delete it. Run the " +
      `plan with ${code('--base <branch>')} to compare it with the base's definition, or delete it in the dashboard, ` +
      `then run ${cli('state forget', identifier)}.`,
    /** `--base`, delete allowed: the file was removed, but the service's workflow is not the base's version. */
    orphanedChangedSinceBase: (identifier: string): string =>
      "this change removes its file, but the service's workflow differs from the base's version (edited in the " +
      `dashboard?), so sync will not delete it: a person decides (delete it in the dashboard, or restore the file and ${cli('pull', identifier)}).`,
    orphanedGone: (identifier: string): string =>
      `no definition has this identifier and the service no longer has it: run ${cli('state forget', identifier)}.`,
    error: (): string =>
      'nothing will be created or recorded for it: run the plan again once the service answers.',
  };
}

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
