import { readProjectText } from '../definitions/read-capped.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { BoundaryError, workingBoundary } from '../fs-boundary.js';
import { JsonTooDeepError, parseJson } from '../json.js';
import { fsFailure } from './atomic-write.js';
import { checkState } from './check.js';
import { emptyState, normalizeStateBaseUrl } from './format.js';
import type { StateFile } from './types.js';

export interface ExpectedTarget {
  target: string;
  baseUrl: string;
}

/** A state file past this size is not read (one holds ~300 bytes per workflow). */
const MAX_STATE_BYTES = 256 * 1024 * 1024;

const REBUILD = 'run `wfsync state rebuild` to rebuild it from the service (the file has been left as it is)';

/**
 * Read and check a target's state file. A missing file is an empty state (a first run); anything unreadable is a
 * WfsyncError naming the file and never touched, so the user decides (rebuild, or restore it from git).
 * Temp files of an interrupted write are never read: only the renamed file counts. Read through the project
 * boundary: a state file that is a symbolic link leading outside the project, or not a regular file, is refused.
 */
export async function readState(path: string, expected: ExpectedTarget): Promise<StateFile> {
  let text: string;
  try {
    text = readProjectText(path, MAX_STATE_BYTES, workingBoundary());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return emptyState(expected.target, expected.baseUrl);
    if (error instanceof BoundaryError) throw new BoundaryError(`the state file ${error.message}`);
    throw fsFailure(`read the state file ${path}`, error);
  }
  let parsed: unknown;
  try {
    // A BOM is what some Windows editors add when the file is touched by hand; it is not corruption.
    parsed = parseJson(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail =
      text.trim() === ''
        ? 'it is empty'
        : error instanceof JsonTooDeepError
          ? `it is ${error.message}`
          : `it is not valid JSON (${(error as Error).message})`;
    throw new WfsyncError(`the state file ${path} is corrupted: ${detail}; ${REBUILD}`, { cause: error });
  }
  const checked = checkState(parsed);
  if ('problem' in checked) {
    throw new WfsyncError(
      checked.kind === 'newer'
        ? `the state file ${path} was written by a newer wfsync (${checked.problem}): upgrade wfsync to use it`
        : `the state file ${path} is corrupted: ${checked.problem}; ${REBUILD}`,
    );
  }
  assertSameTarget(checked.state, path, expected);
  return checked.state;
}

/** Refuse a state file of another target or service: its ids mean nothing there (exit 3, like a config mistake). */
export function assertSameTarget(state: StateFile, path: string, expected: ExpectedTarget): void {
  const baseUrl = normalizeStateBaseUrl(expected.baseUrl);
  if (state.target !== expected.target) {
    throw new WfsyncError(
      `the state file ${path} belongs to target "${state.target}" (${state.baseUrl}), not to target ` +
        `"${expected.target}" (${baseUrl}): sync target "${state.target}" with --target, or give target ` +
        `"${expected.target}" its own state file with --state (or the target's "state" setting)`,
      { exitCode: ExitCode.Invalid },
    );
  }
  if (normalizeStateBaseUrl(state.baseUrl) !== baseUrl) {
    throw new WfsyncError(
      `the state file ${path} records workflows of ${state.baseUrl}, but target "${expected.target}" now ` +
        `points to ${baseUrl}: its ids mean nothing on another service. Give this service its own state file ` +
        `with --state, or, if the service only moved, run \`wfsync state rebuild\``,
      { exitCode: ExitCode.Invalid },
    );
  }
}
