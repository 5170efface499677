import { Command, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { formatOption, lazyAction } from '../run-options.js';

export function initCommand(ctx: CommandContext): Command {
  return new Command('init')
    .summary('set up wfsync in this repository: config, an example, editor settings, .gitignore, CI')
    .description(
      'Set up wfsync in the current directory: wfsync.config.yaml (the built-in local target, and a commented ' +
        'example of a real one), the workflows directory with one example, .vscode/settings.json mapping the ' +
        'definitions to the schema (merged into an existing file, comments kept), .gitignore entries for ' +
        'local-only files, and CI: GitHub Actions workflows (--ci github) or GitLab jobs (--ci gitlab, in ' +
        '.gitlab/wfsync.gitlab-ci.yml, included from .gitlab-ci.yml) for pull/merge requests, the default branch ' +
        'and a scheduled drift check. ' +
        'Safe to run again: files that are already set up are left alone, and a file that exists with other ' +
        'content is kept unless --force. One line per file says what happened.',
    )
    .addOption(
      new Option('--ci <provider>', 'CI workflow files to write')
        .choices(['github', 'gitlab', 'none'])
        .default('github'),
    )
    .option('--dir <dir>', 'workflows directory (default: the config\'s workflowsDir, else "workflows")')
    .option(
      '--schema-path <path>',
      'how editor settings refer to the workflow schema (default: ./schemas/workflow.schema.json when the ' +
        'repository has it, else node_modules/wfsync/schemas/workflow.schema.json)',
    )
    .option('--force', 'replace files wfsync writes (config, example, CI) that exist with other content')
    .addOption(formatOption(['human', 'json']))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync init                       # then: wfsync validate && wfsync sync\n' +
        '  wfsync init --dir notifications --ci none\n' +
        '  wfsync init --ci gitlab                # GitLab CI: merge request plan notes, Code Quality\n' +
        '\nExit codes: 0 done (also when nothing was left to do), 1 a file could not be written, 64 usage error.',
    )
    .action(lazyAction(ctx, async () => (await import('./init-run.js')).runInit));
}
