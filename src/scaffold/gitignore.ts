/**
 * `.gitignore` entries for what wfsync writes that belongs to one machine. Pure.
 *
 * Local-only: the embedded service's data and the `local` target's state (they describe a service that exists
 * only on this machine), `validate --cache` results, lock files and the temp files of atomic writes. Not ignored:
 * the state of a real target (`.wfsync/state/<target>.json`), which a team may commit so CI keeps workflow
 * identities between runs.
 */

export const GITIGNORE_HEADER =
  "# wfsync: local-only files. A real target's state (.wfsync/state/<target>.json) may be committed.";

export const LOCAL_ONLY_ENTRIES: readonly string[] = [
  '.wfsync/local-service.json',
  '.wfsync/state/local.json',
  '.wfsync/cache/',
  '.wfsync/**/*.lock',
  '.wfsync/**/*.lock.takeover',
  '.wfsync/**/*.tmp',
];

/** Lines that already ignore the whole .wfsync directory, and with it every entry. */
const WHOLE_DIRECTORY = new Set(['.wfsync', '.wfsync/', '.wfsync/*', '.wfsync/**']);

export type GitignoreMerge =
  | { status: 'write'; text: string; added: string[] }
  | { status: 'unchanged'; note?: string };

/** Appends the entries the file lacks (once), under a comment; an exact line or a whole-directory rule counts. */
export function buildGitignoreMerge(existing: string | undefined): GitignoreMerge {
  const text = existing ?? '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .map((line) => (line.startsWith('/') ? line.slice(1) : line)),
  );
  if ([...WHOLE_DIRECTORY].some((rule) => lines.has(rule))) {
    return { status: 'unchanged', note: '.wfsync/ is ignored as a whole' };
  }
  const added = LOCAL_ONLY_ENTRIES.filter((entry) => !lines.has(entry));
  if (added.length === 0) return { status: 'unchanged' };
  const block = [GITIGNORE_HEADER, ...added].join(eol) + eol;
  // One blank line between the file's last rule and the block.
  let spacing = eol + eol;
  if (text === '' || text.endsWith(eol + eol)) spacing = '';
  else if (text.endsWith('\n')) spacing = eol;
  return { status: 'write', text: text + spacing + block, added };
}
