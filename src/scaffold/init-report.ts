/** What `wfsync init` prints: one line per file, what to add by hand, and what to do next. Pure. */
import { SCHEMA_VERSION } from '../plan/schema-version.js';
import { CI_API_KEY_ENV, CI_TARGET } from './config-file.js';
import type { InitAction, InitStatus } from './init-plan.js';

export const NOTHING_TO_DO = 'nothing to do: everything is already set up';

/** The longest InitStatus: the file names line up. */
const WIDTH = ('unchanged' satisfies InitStatus).length;

/** `created    wfsync.config.yaml`, `kept       .github/workflows/wfsync-pr.yml (exists; --force to replace)` */
export function renderInitLine(action: InitAction): string {
  return `${action.status.padEnd(WIDTH)}  ${action.path}${action.note ? ` (${action.note})` : ''}\n`;
}

export interface InitSummaryOptions {
  /** The run's own findings (wfsync missing from package.json…). */
  notes: readonly string[];
  /** The CI recipes were written. */
  ci: boolean;
  /** Whose: the key is a repository secret on GitHub (the default), a CI/CD variable on GitLab. */
  provider?: 'github' | 'gitlab' | 'none';
}

/** Everything after the file lines. */
export function renderInitSummary(
  actions: readonly InitAction[],
  { notes, ci, provider }: InitSummaryOptions,
): string {
  const out: string[] = [];
  for (const action of actions) {
    if (action.manual === undefined) continue;
    const snippet = action.manual
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n');
    out.push(`\n${action.path} was left as it is; add this to it by hand:\n${snippet}\n`);
  }
  for (const note of notes) out.push(`\nnote: ${note}\n`);
  const changed = actions.some(
    (a) => a.status === 'created' || a.status === 'updated' || a.status === 'replaced',
  );
  const kept = actions.filter((a) => a.status === 'kept' && a.manual === undefined).length;
  if (!changed && kept === 0 && !actions.some((a) => a.manual !== undefined)) {
    out.push(`\n${NOTHING_TO_DO}\n`);
  } else if (!changed) {
    const files =
      kept === 1
        ? '1 file kept as it was (--force replaces it)'
        : `${kept} files kept as they were (--force replaces them)`;
    out.push(`\nnothing changed${kept > 0 ? `: ${files}` : ''}\n`);
  } else {
    out.push(
      '\nNext: `wfsync validate`, then `wfsync sync` (the built-in local target: no account needed).\n' +
        `For a real service, fill in the ${CI_TARGET} target in the config${ci ? ` and add the Development environment's API key as ${provider === 'gitlab' ? `the masked CI/CD variable ${CI_API_KEY_ENV} (and a project access token as WFSYNC_GITLAB_TOKEN for the merge request note)` : `the repository secret ${CI_API_KEY_ENV}`}` : ''}.\n`,
    );
  }
  return out.join('');
}

const STATUSES: readonly InitStatus[] = ['created', 'updated', 'replaced', 'unchanged', 'kept', 'skipped'];

/**
 * `init --format json`: every file with what happened to it (and what to add by hand), the run's notes, and a count
 * per status (schemas/init-output.schema.json).
 */
export function buildInitDocument(actions: readonly InitAction[], notes: readonly string[]) {
  return {
    schemaVersion: SCHEMA_VERSION,
    summary: Object.fromEntries(STATUSES.map((s) => [s, actions.filter((a) => a.status === s).length])),
    files: actions.map((a) => ({
      path: a.path,
      status: a.status,
      ...(a.note === undefined ? {} : { note: a.note }),
      ...(a.manual === undefined ? {} : { manual: a.manual }),
    })),
    notes: [...notes],
  };
}
