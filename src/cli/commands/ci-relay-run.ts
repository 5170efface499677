import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { relay } from '../../ci/relay.js';
import type { CiProvider, RelayedCommand, Verdict } from '../../ci/verdict.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import type { CommandContext } from '../context.js';

/** `wfsync ci-relay`'s flags (ci-relay.ts declares them). */
export interface CiRelayFlags {
  command: RelayedCommand;
  exitCode: number;
  document?: string;
  markdown?: string;
  target?: string;
  provider?: CiProvider;
  commentFailed?: boolean;
}

export async function runCiRelay(ctx: CommandContext, flags: CiRelayFlags): Promise<number> {
  const provider = flags.provider ?? detectProvider(ctx.env);
  if (provider === 'github' && flags.markdown !== undefined) {
    throw new WfsyncError('--markdown is for GitLab: the Action writes the pull request comment', {
      exitCode: ExitCode.Usage,
    });
  }
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
      commentFailed: flags.commentFailed === true,
    },
    {
      line: say,
      verdict: (command, verdict) => say(formatVerdict(provider, command, verdict, ctx.commandMark.get)),
    },
  );
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
function formatVerdict(
  provider: CiProvider,
  command: RelayedCommand,
  verdict: Verdict,
  mark: () => string,
): string {
  const title = `wfsync ${command}`;
  if (provider === 'github' && verdict.level !== 'notice') {
    return `${mark()}::${verdict.level} title=${title}::${escapeData(verdict.text)}`;
  }
  return verdict.level === 'warning' ? `warning: ${title}: ${verdict.text}` : `${title}: ${verdict.text}`;
}

/** An annotation's data as GitHub's workflow commands escape it (`%`, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
