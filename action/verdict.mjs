/**
 * The verdict of a wfsync run, for a CI job (the recipes `wfsync init --ci github` writes use the action, so they
 * share it). wfsync decides it: the plan and sync documents carry their `exitCode`, `needsPerson` and `meaning`
 * (written once, in wfsync's own tables), and this only relays them: 0 and 2 pass, 6 fails naming the workflows the
 * document names, any other code fails with the document's meaning when a document says it (a run that failed before
 * writing one, or validate, points at its own output). Identifiers are text from outside: anything but letters,
 * digits, `.`, `_` and `-` becomes `?`, so none can end or forge an annotation line.
 */

/** @param {unknown} value */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The verdict a plan or sync document carries, or undefined when it carries none (no document, or one written by a
 * wfsync older than schemaVersion 3).
 * @param {unknown} document
 * @returns {{ exitCode: number, needsPerson: string[], meaning: string } | undefined}
 */
export function documentVerdict(document) {
  if (!isObject(document)) return undefined;
  const { exitCode, needsPerson, meaning } = document;
  if (!Number.isInteger(exitCode) || !Array.isArray(needsPerson) || typeof meaning !== 'string')
    return undefined;
  return { exitCode, needsPerson: needsPerson.map(String), meaning };
}

/**
 * `welcome (drifted), billing (conflict)`: the workflows a document says need a person, each with the class the
 * document gives it (a plan's action, a sync's outcome), or '' when it names none.
 * @param {unknown} document
 */
export function needingAPerson(document) {
  const verdict = documentVerdict(document);
  if (verdict === undefined || !isObject(document)) return '';
  const rows = Array.isArray(document.outcomes) ? document.outcomes : document.items;
  const classes = new Map(
    (Array.isArray(rows) ? rows : [])
      .filter(isObject)
      .map((row) => [String(row.identifier), String(row.outcome ?? row.action)]),
  );
  return verdict.needsPerson
    .map((identifier) => {
      const named = classes.get(identifier);
      return named === undefined ? safeName(identifier) : `${safeName(identifier)} (${safeName(named)})`;
    })
    .join(', ');
}

/** @param {string} text */
export function safeName(text) {
  return text.replace(/[^A-Za-z0-9._-]/g, '?');
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
 * What the job says and how the step ends, for one run of a command. `target` names the target in prose (made safe
 * by the caller); `who` the workflows that need a person (needingAPerson); `meaning` what the document says its code
 * means, when the run wrote one with this code.
 * @param {{ command: string, code: number, target: string, pullRequest: boolean, who: string, meaning?: string }} run
 * @returns {{ lines: string[], exitCode: number }}
 */
export function buildVerdict(run) {
  const { command, code, target, pullRequest, who } = run;
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
      : `::warning title=${title}::workflows in the definitions are not on ${target} yet: the next sync of ${target} creates them (did the last sync fail?).`;
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
        `::error title=${title}::synced what sync may apply, but a workflow needs a person: ${who || 'see the report above'}. The run's summary says what to do for each.`,
      ],
      exitCode: 6,
    };
  }
  const meaning = run.meaning === undefined ? '' : `: ${escapeData(run.meaning)}`;
  return {
    lines: [
      `::error title=${title}::wfsync ${command} failed (exit ${code}${meaning}); the output above says why.`,
    ],
    exitCode: code >= 1 && code <= 255 ? code : 1,
  };
}
