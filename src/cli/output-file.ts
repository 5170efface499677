/**
 * Files a user names on the command line for a report (`validate --output`, `plan --out`, `sync --out`,
 * `preview --out`, the folder of `plan --previews`). In a CI job on a contributor's branch the working tree is the
 * contributor's: `plan.json` (or `reports/`) may be committed as a symbolic link to `~/.bashrc` or a git hook. So
 * these files are written with the one writer that never follows a link (state/atomic-write.ts, through
 * fs-boundary.ts): a temp file beside the file, renamed over it; a link at the file, or at a folder from its
 * project root down to it, is refused (exit 1, the link named, like state and pull files). A path outside the
 * project (`--out /tmp/plan.json`) is fine as long as the file itself is no link.
 */
import { resolve } from 'node:path';
import { WfsyncError } from '../errors.js';
import {
  assertNoLinks,
  BoundaryError,
  createFsBoundary,
  type FsBoundary,
  shownPath,
} from '../fs-boundary.js';
import { fsFailure, writeFileAtomically } from '../state/atomic-write.js';
import { type CommandContext, fileText } from './context.js';

/**
 * Refuses, before the command does anything, a report path that is a symbolic link or has one on the way to it (a
 * `sync` must not apply changes and then fail on `--out`). Creates nothing.
 */
export function checkOutputFile(cwd: string, flag: string, file: string): void {
  const boundary = createFsBoundary(cwd);
  try {
    assertNoLinks(resolve(cwd, file), boundary);
  } catch (error) {
    throw worded(cwd, flag, file, error);
  }
}

/** Replaces (or creates, with its folders) the report file `file` with `text`, never through a link. */
export async function writeOutputFile(
  cwd: string,
  flag: string,
  file: string,
  text: string,
  boundary: FsBoundary = createFsBoundary(cwd),
): Promise<void> {
  await writeFileAtomically(resolve(cwd, file), text, { boundary }).catch((error: unknown) => {
    throw worded(cwd, flag, file, error);
  });
}

/** `--out plan.json: refusing to write through …` (exit 1), or `cannot write --out plan.json: <the OS error>`. */
function worded(cwd: string, flag: string, file: string, error: unknown): WfsyncError {
  const shown = shownPath(cwd, resolve(cwd, file));
  if (error instanceof BoundaryError) return new BoundaryError(`${flag} ${shown}: ${error.message}`);
  if (error instanceof WfsyncError) return error;
  return fsFailure(`write ${flag} ${shown}`, error);
}

/**
 * `validate` and `plan --codequality <file>`: the command's Code Quality report (the document `--format codeclimate`
 * prints), rendered from the same run as stdout, so the two cannot disagree. Once it is written, a later failure
 * leaves it alone, as it leaves stdout; a run that fails before writes its failure there instead (cli/failure.ts).
 */
export async function writeCodeQualityFile(ctx: CommandContext, file: string, report: string): Promise<void> {
  await writeOutputFile(ctx.cwd, '--codequality', file, fileText(ctx, report));
  if (ctx.invocation?.codequality !== undefined) ctx.invocation.codequality.written = true;
}
