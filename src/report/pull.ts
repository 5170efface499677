/**
 * What `wfsync pull` did, by `--format` name. Pure: each returns the whole of stdout and of stderr. human: a line per
 * workflow pulled on stdout, `wfsync: <id>: <reason>` per failure on stderr. json: one document (`schemaVersion`,
 * `target`, `summary`, `workflows`; keys in the order built below, listed in docs/commands/pull.md), no stderr.
 */

import { SCHEMA_VERSION } from '../plan/schema-version.js';
import type { PulledWorkflow, PullPlan } from '../pull/build-plan.js';
import { plural } from '../text.js';
import { jsonText } from './channel.js';

export type PullFormat = 'human' | 'json';

export interface PullOutput {
  stdout: string;
  stderr: string;
}

export const pullRenderers: Record<PullFormat, (plan: PullPlan) => PullOutput> = {
  human: renderPullHuman,
  json: (plan) => ({ stdout: `${jsonText(buildPullDocument(plan))}\n`, stderr: '' }),
};

/** The most paths a line names before it counts the rest. */
const SHOWN_PATHS = 6;

/**
 * A name as asked for on the command line, quoted as JSON unless it is letters, digits, `.`, `_` and `-`: a line
 * break or a space in an argument then cannot make one line read as two.
 */
function shownRequest(requested: string): string {
  return /^[\p{L}\p{N}._-]+$/u.test(requested) ? requested : JSON.stringify(requested);
}

function renderPullHuman(plan: PullPlan): PullOutput {
  const output: PullOutput = { stdout: '', stderr: '' };
  for (const item of plan.items) {
    if ('failed' in item) output.stderr += `wfsync: ${shownRequest(item.requested)}: ${item.failed}\n`;
    else
      output.stdout += `pulled ${item.identifier}${outcomeOf(item)}${item.notes.map((n) => ` (${n})`).join('')}\n`;
  }
  return output;
}

/** The rest of the line after `pulled <identifier>`. */
function outcomeOf(item: PulledWorkflow): string {
  const { changed } = item;
  const all = [item.file, ...item.includes.map((i) => i.file)].join(', ');
  if (item.created) return ` (id ${item.id}) → ${all}`;
  if (item.rewritten !== undefined)
    return `: rewritten whole, comments and layout not kept (${item.rewritten}) → ${all}`;
  if (changed.length === 0) return `: ${item.file} already matches the service`;
  const where = [...(item.text === undefined ? [] : [item.file]), ...item.includes.map((i) => i.file)];
  const more = changed.length > SHOWN_PATHS ? `, and ${changed.length - SHOWN_PATHS} more` : '';
  const fields = `${plural(changed.length, 'field')} changed`;
  return `: ${fields} (${changed.slice(0, SHOWN_PATHS).join(', ')}${more}) → ${where.join(', ')}`;
}

function buildPullDocument(plan: PullPlan) {
  const workflows = plan.items.map((item) => {
    if ('failed' in item) return { requested: item.requested, action: 'failed', reason: item.failed };
    const written = item.text !== undefined || item.includes.length > 0;
    return {
      requested: item.requested,
      identifier: item.identifier,
      id: item.id,
      file: item.file,
      action: written ? 'written' : 'unchanged',
      created: item.created,
      changed: item.changed,
      includes: item.includes.map((i) => i.file),
      modeline: item.modeline,
      recorded: item.body !== undefined,
      notes: [
        ...(item.rewritten === undefined
          ? []
          : [`rewritten whole, comments and layout not kept (${item.rewritten})`]),
        ...item.notes,
      ],
    };
  });
  const count = (action: string) => workflows.filter((w) => w.action === action).length;
  return {
    schemaVersion: SCHEMA_VERSION,
    target: plan.target,
    summary: { written: count('written'), unchanged: count('unchanged'), failed: count('failed') },
    workflows,
  };
}
