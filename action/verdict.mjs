/**
 * The one copy of what a wfsync exit code means for a CI job (the recipes `wfsync init --ci github` writes use the
 * action, so they share it): 0 and 2 pass, 6 fails naming the workflows that need a person, any other code fails
 * with its meaning (the README's exit-code table). Identifiers are text from outside: anything but letters, digits,
 * `.`, `_` and `-` becomes `?`, so none can end or forge an annotation line.
 */

/** @param {number} code */
export function exitMeaning(code) {
  switch (code) {
    case 0:
      return 'success';
    case 1:
      return 'an unexpected failure: the service unreachable or failing, an I/O error, or a bug';
    case 2:
      return 'changes that sync applies (workflows to create)';
    case 3:
      return 'invalid definitions or config';
    case 4:
      return 'the API key was refused, or it is not a Development-environment key';
    case 5:
      return 'rate limited: the retry budget ran out';
    case 6:
      return 'a workflow needs a person';
    case 64:
      return "a usage error in this step's wfsync command or the action's inputs";
    default:
      return 'an exit code wfsync does not use: wfsync did not run, or crashed';
  }
}

/** The plan actions that need a person (sync will not settle them). */
export const NEEDS_A_PERSON = ['drifted', 'changed-locally', 'conflict', 'missing-remotely', 'orphaned'];

/**
 * `welcome (drifted), billing (conflict)` from a plan document, or '' when it holds none.
 * @param {unknown} plan
 */
export function needingAPerson(plan) {
  const items = plan !== null && typeof plan === 'object' && Array.isArray(plan.items) ? plan.items : [];
  return items
    .filter((item) => item !== null && typeof item === 'object' && NEEDS_A_PERSON.includes(item.action))
    .map((item) => `${safeName(String(item.identifier))} (${item.action})`)
    .join(', ');
}

/** @param {string} text */
export function safeName(text) {
  return text.replace(/[^A-Za-z0-9._-]/g, '?');
}

/** Characters a POSIX shell reads as themselves in an unquoted word (as src/plan/command-line.ts `PLAIN_WORD`). */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/**
 * `value` as one word a POSIX shell reads back as exactly `value`: as it is when it holds only plain characters, else
 * in single quotes, each `'` written `'\''`; the empty string is `''`. The same answers as src/plan/command-line.ts
 * `shellWord` (a unit test holds them together): the action's scripts use node built-ins only.
 * @param {string} value
 */
export function shellWord(value) {
  if (PLAIN_WORD.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * An annotation message's data as GitHub's workflow commands escape it (`%`, CR, LF): the line cannot be ended or
 * forged, and GitHub shows the text as it was.
 * @param {string} text
 */
export function escapeData(text) {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * `wfsync <command>` as the action's run would have to be repeated: with `--target <t>` (shell-quoted) when the
 * step was given a `target` input, bare when it used the config's default target.
 * @param {string} command
 * @param {string} targetInput
 */
export function suggestedCommand(command, targetInput) {
  return targetInput === '' ? `wfsync ${command}` : `wfsync ${command} --target ${shellWord(targetInput)}`;
}

/**
 * What the job says and how the step ends, for one run of a command. `target` names the target in prose (made safe
 * by the caller); `targetInput` is the step's `target` input as given ('' for the config's default), repeated in
 * the commands the verdict suggests.
 * @param {{ command: string, code: number, target: string, targetInput?: string, pullRequest: boolean, who: string }} run
 * @returns {{ lines: string[], exitCode: number }}
 */
export function buildVerdict(run) {
  const { command, code, target, pullRequest, who } = run;
  const targetInput = run.targetInput ?? '';
  const title = `wfsync ${command}`;
  if (code === 0) {
    const said = {
      validate: 'wfsync validate: every definition is valid.',
      plan: `wfsync plan: nothing to change on ${target}.`,
      sync: `wfsync sync: ${target} matches the definitions.`,
    };
    return { lines: [said[command] ?? `${title}: success.`], exitCode: 0 };
  }
  if (code === 2 && command === 'plan') {
    const line = pullRequest
      ? 'wfsync plan: merging creates what the plan lists; the sync after the merge applies it.'
      : `::warning title=${title}::workflows in the definitions are not on ${target} yet: ${escapeData(suggestedCommand('sync', targetInput))} creates them (did the last sync fail?).`;
    return { lines: [line], exitCode: 0 };
  }
  if (code === 6 && command === 'plan') {
    return {
      lines: [
        `::error title=${title}::a workflow needs a person: ${who || 'see the plan'}. Sync will not apply this; the plan says what to do for each.`,
      ],
      exitCode: 6,
    };
  }
  if (code === 6 && command === 'sync') {
    return {
      lines: [
        who
          ? `::error title=${title}::synced what sync may apply, but a workflow needs a person: ${who}. The run's summary says what to do for each.`
          : `::error title=${title}::synced what sync may apply, but a workflow needs a person (drifted, changed locally, conflict, missing remotely or orphaned): the run's summary says which and what to do.`,
      ],
      exitCode: 6,
    };
  }
  return {
    lines: [
      `::error title=${title}::wfsync ${command} failed (exit ${code}: ${exitMeaning(code)}); the output above says why.`,
    ],
    exitCode: code >= 1 && code <= 255 ? code : 1,
  };
}
