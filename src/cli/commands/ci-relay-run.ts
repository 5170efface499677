import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { relay } from '../../ci/relay.js';
import type { CiProvider, RelayedCommand, Verdict } from '../../ci/verdict.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { escapeData } from '../../report/github.js';
import type { CommandContext } from '../context.js';

/** `wfsync ci-relay`'s flags (ci-relay.ts declares them). */
export interface CiRelayFlags {
  command: RelayedCommand;
  exitCode: number;
  document?: string;
  markdown?: string;
  target?: string;
  provider?: CiProvider;
  /** `--no-comment`: the Markdown is for the job summary only. */
  comment?: boolean;
}

export async function runCiRelay(ctx: CommandContext, flags: CiRelayFlags): Promise<number> {
  const provider = flags.provider ?? detectProvider(ctx.env);
  const document =
    flags.document === undefined ? undefined : await readJson(resolve(ctx.cwd, flags.document));
  const markdown =
    flags.markdown === undefined
      ? undefined
      : await readFile(resolve(ctx.cwd, flags.markdown), 'utf8').catch(() => '');
  const say = (text: string) => ctx.stdout.write(`${text}\n`);
  return relay(
    {
      provider,
      command: flags.command,
      code: flags.exitCode,
      env: ctx.env,
      document,
      ...(markdown === undefined ? {} : { markdown }),
      ...(flags.target === undefined ? {} : { target: flags.target }),
      comment: flags.comment !== false,
    },
    {
      line: say,
      annotate: (level, title, text) => say(formatLine(provider, level, title, text, ctx.commandMark.get)),
      verdict: (command, verdict) =>
        say(formatLine(provider, verdict.level, `wfsync ${command}`, verdict.text, ctx.commandMark.get)),
      setOutput: (name, value) => appendTo(ctx.env.GITHUB_OUTPUT, outputBlock(name, value)),
      appendSummary: (markdown) => appendTo(ctx.env.GITHUB_STEP_SUMMARY, markdown),
    },
  );
}

/** Appends to a file the runner named (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY); nothing outside a GitHub job. */
async function appendTo(path: string | undefined, text: string): Promise<void> {
  if (path !== undefined && path !== '') await appendFile(path, text);
}

/** A step output as the runner reads it: a block under a delimiter no value can contain by chance. */
function outputBlock(name: string, value: string): string {
  const delimiter = `wfsync_${randomBytes(12).toString('hex')}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function detectProvider(env: NodeJS.ProcessEnv): CiProvider {
  if (env.GITLAB_CI === 'true') return 'gitlab';
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  throw new WfsyncError('not in a GitLab or GitHub job (no GITLAB_CI or GITHUB_ACTIONS): pass --provider', {
    exitCode: ExitCode.Usage,
  });
}

/** What wfsync failed before writing reads as no document; a document that is not JSON is no document either. */
async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** GitHub: an annotation (our own workflow command, marked); GitLab: a plain line, warnings so labelled. */
function formatLine(
  provider: CiProvider,
  level: Verdict['level'],
  title: string,
  text: string,
  mark: () => string,
): string {
  if (provider === 'github' && level !== 'notice') {
    return `${mark()}::${level} title=${title}::${escapeData(text)}`;
  }
  return level === 'warning' ? `warning: ${title}: ${text}` : `${title}: ${text}`;
}
