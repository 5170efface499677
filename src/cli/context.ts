import type { WfsyncError } from '../errors.js';
import { createChannel, sanitizeOutput } from '../report/channel.js';
import { renderDiagnostics } from '../report/human.js';
import { writeOutput } from '../report/write-output.js';
import type { CommandMark } from './command-mark.js';
import { DirectWriter, openStdio } from './stdio.js';

/** What a command may touch of the outside world; main() builds it from the process, tests may pass their own. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * What main() learns of the command line while commander parses it (main.ts listens to the options), and whether
 * stdout was written to: on a failure, the command's `--format` decides the document stdout still owes.
 */
export interface Invocation {
  /** The command whose `--format` was given (`plan`, `sync`, `validate`, `pull`, `show`). */
  command?: string;
  format?: string;
  /** `--target` as given. */
  target?: string;
  /** `sync --dry-run`: the output is a plan. */
  dryRun?: boolean;
  /** Something was written to stdout. */
  stdoutUsed: boolean;
  /** `--codequality <file>` (validate, plan): where a failure's report goes too, unless the command's was written. */
  codequality?: { command: string; file: string; written: boolean };
}

export interface CommandContext extends CliIO {
  /** Set by the command's action; main() returns it. */
  exitCode: number;
  /** Set by main(); absent in tests that build a context themselves. */
  invocation?: Invocation;
  /**
   * Per process and unguessable, made on first use (command-mark.ts): renderers put it in front of the
   * workflow-command lines they make themselves (render options' `commandMark: commandMark.get`), and the channels
   * strip it (they read `commandMark.made`), so text from outside cannot pass for one of ours.
   */
  commandMark: CommandMark;
}

/** Colours only on a TTY, never with NO_COLOR or TERM=dumb; FORCE_COLOR forces them (https://no-color.org). */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  const { env } = io;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return io[stream].isTTY === true;
}

/** GitHub Actions reads workflow commands from this run's output. */
export function underGithubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

export function processIO(): CliIO {
  return { stdout: openStdio('stdout'), stderr: openStdio('stderr'), env: process.env, cwd: process.cwd() };
}

const RAW = Symbol('wfsync.rawStream');

/**
 * The one place text leaves wfsync: `io` with stdout and stderr wrapped so that every write (writeOutput, commander's
 * help and errors, progress lines, --verbose logs) goes through the stream's channel (report/channel.ts): colour as
 * useColor decides for that stream, the Actions rules when GITHUB_ACTIONS=true, the mark stripped from our own lines.
 * `mark` reads the mark without making one (CommandMark's `made`): until a renderer makes it, no line is ours.
 */
export function openChannels(io: CliIO, mark: () => string | undefined, onStdout?: () => void): CliIO {
  const actions = underGithubActions(io.env);
  const wrap = (name: 'stdout' | 'stderr', onWrite?: () => void) =>
    channelStream(io[name], createChannel({ color: useColor(io, name), actions, mark }), onWrite);
  return { ...io, stdout: wrap('stdout', onStdout), stderr: wrap('stderr') };
}

/**
 * The stream itself: `write` and `end` go through `channel`, everything else (isTTY, columns, events) is the
 * stream's. Buffers are decoded as UTF-8 first (a character split between two writes is kept whole). `onWrite` is
 * told of every write of some text.
 */
function channelStream<S extends NodeJS.WritableStream>(
  stream: S,
  channel: (text: string) => string,
  onWrite?: () => void,
): S {
  const decoder = new TextDecoder();
  const text = (chunk: unknown) => {
    const decoded = typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    if (decoded !== '') onWrite?.();
    return channel(decoded);
  };
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean =>
    typeof encoding === 'function'
      ? stream.write(text(chunk), encoding as (error?: Error | null) => void)
      : stream.write(text(chunk), 'utf8', callback as ((error?: Error | null) => void) | undefined);
  const end = (chunk?: unknown, encoding?: unknown, callback?: unknown): S => {
    if (typeof chunk === 'function') return stream.end(chunk as () => void) as S;
    if (chunk !== undefined && chunk !== null)
      write(chunk, typeof encoding === 'function' ? undefined : encoding);
    return stream.end((typeof encoding === 'function' ? encoding : callback) as () => void) as S;
  };
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      if (key === 'end') return end;
      if (key === RAW) return target;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The stream under a channel (listr2 owns the terminal and sanitises what it is given itself). */
export function rawStream<S extends NodeJS.WritableStream>(stream: S): S {
  return ((stream as unknown as Record<symbol, unknown>)[RAW] as S | undefined) ?? stream;
}

/**
 * For a command that runs until Ctrl-C (a server, a watcher): stdout and stderr through Node's own streams from now
 * on, which queue what a reader has not taken instead of making the process wait for it (stdio.ts).
 */
export function handOverToNodeStreams(io: CliIO): void {
  for (const stream of [rawStream(io.stdout), rawStream(io.stderr)])
    if (stream instanceof DirectWriter) stream.handOver();
}

/** A report written to a file (`--output`, `--out`, `$GITHUB_STEP_SUMMARY`) goes through the same rules, colourless. */
export function fileText(ctx: CommandContext, text: string): string {
  return sanitizeOutput(text, {
    color: false,
    actions: underGithubActions(ctx.env),
    mark: ctx.commandMark.made,
  });
}

/**
 * `wfsync: <message>` as a line (or lines) of stderr. A message may quote text from outside (a service's answer, a
 * file's content) with line breaks: each line after the first that would start at column 0 is indented, so no quoted
 * text can start a line that reads as wfsync's own. Lines the message indents itself are kept as they are. A `::`
 * after the indent is still a workflow command to the runner: stderr's channel neutralises it under Actions.
 */
export function wfsyncMessage(message: string): string {
  return `wfsync: ${message.replace(/\n(?![ \t\n]|$)/g, '\n  ')}\n`;
}

/** A WfsyncError as the user sees it: its message, then its diagnostics with their code frames. */
export async function writeWfsyncError(io: CliIO, error: WfsyncError): Promise<void> {
  await writeOutput(io.stderr, wfsyncMessage(error.message));
  if (error.diagnostics.length === 0) return;
  const color = useColor(io, 'stderr');
  await writeOutput(io.stderr, renderDiagnostics(error.diagnostics, error.sources, { color }));
}
