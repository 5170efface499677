/**
 * The verdict of a wfsync run in a CI job, for every provider: the one place that says which exit codes pass a job
 * (0, and 2 for a plan: merging or the next sync creates what it lists), which fail it (6 names the workflows that
 * need a person, anything else fails with what the code means), and in what words. The codes' meanings and who needs
 * a person are not decided here: the plan and sync documents carry them (`exitCode`, `needsPerson`, `meaning`), and
 * the relay passes them on. Provider differences are words only (where the plan is shown, what syncs after a merge)
 * and how a line is marked (GitHub annotations, GitLab plain lines). Pure.
 */

export type CiProvider = 'github' | 'gitlab';
export type RelayedCommand = 'validate' | 'plan' | 'sync';

export interface RelayedRun {
  provider: CiProvider;
  command: RelayedCommand;
  /** The exit code wfsync ended with. */
  code: number;
  /** The target's name, safe in prose (safeName). */
  target: string;
  /** A run for a pull or merge request (a plan there is what merging would do). */
  changeRequest: boolean;
  /** `welcome (drifted), billing (conflict)`: who the document says needs a person (needingAPerson), or ''. */
  who: string;
  /** What the document says its code means, when the document ended with this code. */
  meaning?: string;
}

export interface Verdict {
  level: 'notice' | 'warning' | 'error';
  /** One line, without the `wfsync <command>` prefix (the provider's format adds it). */
  text: string;
  /** How the job ends. */
  exitCode: number;
}

/** The words that differ between providers. */
const WORDS: Record<CiProvider, { shownPlan: string; syncAfterMerge: string; syncReport: string }> = {
  github: {
    shownPlan: 'the plan',
    syncAfterMerge: 'the sync after the merge',
    syncReport: "the run's summary",
  },
  gitlab: {
    shownPlan: 'the plan note',
    syncAfterMerge: 'the sync on the default branch',
    syncReport: 'the report above',
  },
};

export function decideVerdict(run: RelayedRun): Verdict {
  const { command, code, target, changeRequest, who } = run;
  const words = WORDS[run.provider];
  const shownPlan = changeRequest ? words.shownPlan : 'the plan';
  if (code === 0) {
    const said = {
      validate: 'every definition is valid.',
      plan: `nothing to change on ${target}.`,
      sync: `${target} matches the definitions.`,
    };
    return { level: 'notice', text: said[command], exitCode: 0 };
  }
  if (code === 2 && command === 'plan') {
    return changeRequest
      ? {
          level: 'notice',
          text: `merging creates what ${shownPlan} lists; ${words.syncAfterMerge} applies it.`,
          exitCode: 0,
        }
      : {
          level: 'warning',
          text: `workflows in the definitions are not on ${target} yet: the next sync of ${target} creates them (did the last sync fail?).`,
          exitCode: 0,
        };
  }
  if (code === 6 && command === 'plan') {
    return {
      level: 'error',
      text: `a workflow needs a person: ${who || `see ${shownPlan}`}. Sync will not apply this; ${shownPlan} says what to do for each.`,
      exitCode: 6,
    };
  }
  if (code === 6 && command === 'sync') {
    const report = words.syncReport;
    return {
      level: 'error',
      text: `synced what sync may apply, but a workflow needs a person: ${who || `see ${report}`}. ${capitalise(report)} says what to do for each.`,
      exitCode: 6,
    };
  }
  const meaning = run.meaning === undefined ? '' : `: ${run.meaning.replace(/[\r\n]+/g, ' ')}`;
  return {
    level: 'error',
    text: `failed (exit ${code}${meaning}); the output above says why.`,
    exitCode: code >= 1 && code <= 255 ? code : 1,
  };
}

/** The verdict when the run passed but its comment or note could not be written: a stale one must not read as current. */
export function commentFailedVerdict(provider: CiProvider): Verdict {
  const where = provider === 'gitlab' ? 'merge request note' : 'pull request comment';
  return {
    level: 'error',
    text: `the plan passed, but the ${where} could not be written (above): it may show an older plan.`,
    exitCode: 1,
  };
}

/** Identifiers and names are text from outside: anything but letters, digits, `.`, `_` and `-` becomes `?`. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '?');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
