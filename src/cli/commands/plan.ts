import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import {
  addAllowOption,
  addOnlyOption,
  addReportUnusedDisableOption,
  addTargetOptions,
  formatOption,
  lazyAction,
} from '../run-options.js';

export function planCommand(ctx: CommandContext): Command {
  const command = new Command('plan')
    .summary('show what differs between the definitions and the service (read-only)')
    .description(
      'For each definition, find the workflow on the service and show what differs, as a diff. Read-only: plan ' +
        'never sends a POST. Exit 0 when there is nothing to do, 2 when sync has workflows to create, ' +
        '6 when a workflow needs a person (drifted, changed locally, conflict, missing remotely, orphaned).',
    )
    .argument(
      '[paths...]',
      'only the definitions in these files or folders (as --only: workflows recorded in state elsewhere are left ' +
        'alone); each must be a definition of the project',
    )
    .addOption(formatOption(['human', 'json', 'markdown', 'github', 'codeclimate']))
    .option('-o, --out <file>', 'also write the plan as JSON (for review, or for "wfsync sync --plan")')
    .option(
      '--previews <dir>',
      'also write an HTML preview of each workflow to create or that differs (steps rendered with sample data, ' +
        "the service's version beside a differing one) and an index.html into <dir>, for the plan artifact",
    )
    .option(
      '--codequality <file>',
      "also write the Code Quality report --format codeclimate prints (GitLab's artifacts:reports:codequality) " +
        'into <file>, from the same plan: one run, one set of requests (a failed run writes its failure there)',
    )
    .option('--show-ignored', 'list the server-managed fields that are never compared')
    .option(
      '--base <git-ref>',
      'tell who changed a workflow from the definitions at the merge-base of HEAD and this ref (default: ' +
        '$GITHUB_BASE_REF, as origin/<name> when it resolves)',
    );
  addTargetOptions(command);
  addOnlyOption(command);
  addAllowOption(command);
  addReportUnusedDisableOption(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync plan                                   # against the default target\n' +
        '  wfsync plan --target development --out plan.json\n' +
        '  wfsync plan --format markdown --out plan.json --previews previews/   # a PR: comment, plan, previews\n' +
        '  wfsync plan --format markdown > comment.md    # a pull-request comment\n' +
        '  wfsync plan --format markdown --codequality gl-code-quality.json > note.md   # GitLab: note and widget\n' +
        '  wfsync plan --only "order-*"\n' +
        "  wfsync plan services/billing/workflows       # a monorepo: one service's definitions\n" +
        '  wfsync plan --base main --format markdown   # a pull request: what the change does, what it cannot\n' +
        '\nExit codes: 0 nothing to do, 2 sync will create or record, 6 a person must act, 1 service unreachable, ' +
        '3 invalid, 4 auth, 5 rate limited.',
    )
    .action(lazyAction(ctx, async () => (await import('./plan-run.js')).runPlan));
}
