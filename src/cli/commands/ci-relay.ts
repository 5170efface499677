import { Command, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { lazyAction, parseNonNegativeInt } from '../run-options.js';

/**
 * `wfsync ci-relay`: what a CI job runs after wfsync (the GitLab jobs `wfsync init --ci gitlab` writes and the GitHub
 * Action's relay step call it): writes the merge request note or pull request comment (and GitHub's job summary),
 * says the verdict and ends with the job's exit code. Hidden: a pipeline's step.
 */
export function ciRelayCommand(ctx: CommandContext): Command {
  return new Command('ci-relay')
    .summary('in a CI job, after wfsync: the plan note or comment, the verdict and the exit code')
    .description(
      'Read the document a wfsync run wrote (--document), keep wfsync’s note on the merge request or comment on the ' +
        'pull request up to date with what it printed as Markdown (--markdown; on GitHub also the job summary), ' +
        'say what the exit code means for the job and end with the ' +
        "job's code: 0 and 2 pass, 6 names the workflows that need a person, any other code fails.",
    )
    .addOption(
      new Option('--command <command>', 'the wfsync command that ran')
        .choices(['validate', 'plan', 'sync'])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--exit-code <code>', 'the exit code it ended with')
        .argParser(parseNonNegativeInt)
        .makeOptionMandatory(),
    )
    .option('--document <file>', 'the plan or sync document it wrote (--out)')
    .option('--markdown <file>', 'what it printed as Markdown: the note or comment to write')
    .option('--no-comment', 'with --markdown: the job summary only, nothing on the pull or merge request')
    .option('-t, --target <name>', 'the target, when no document names it')
    .addOption(
      new Option('--provider <provider>', 'the CI (default: from the environment)').choices([
        'gitlab',
        'github',
      ]),
    )
    .action(lazyAction(ctx, async () => (await import('./ci-relay-run.js')).runCiRelay));
}
