import type { WfsyncError } from '../errors.js';
import { renderDiagnostics } from '../report/human.js';
import { writeOutput } from '../report/write-output.js';

/** What a command may touch of the outside world; main() builds it from the process, tests may pass their own. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface CommandContext extends CliIO {
  /** Set by the command's action; main() returns it. */
  exitCode: number;
}

/** Colours only on a TTY, never with NO_COLOR or TERM=dumb; FORCE_COLOR forces them (https://no-color.org). */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  const { env } = io;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return io[stream].isTTY === true;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** A WfsyncError as the user sees it: its message, then its diagnostics with their code frames. */
export async function writeWfsyncError(io: CliIO, error: WfsyncError): Promise<void> {
  await writeOutput(io.stderr, `wfsync: ${error.message}\n`);
  if (error.diagnostics.length === 0) return;
  const color = useColor(io, 'stderr');
  await writeOutput(io.stderr, renderDiagnostics(error.diagnostics, error.sources, { color }));
}
