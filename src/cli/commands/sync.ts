import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import {
  addAllowOption,
  addOnlyOption,
  addReportUnusedDisableOption,
  addTargetOptions,
  formatOption,
  lazyAction,
  parseNonNegativeInt,
} from '../run-options.js';

export function syncCommand(ctx: CommandContext): Command {
  const command = new Command('sync')
    .summary('create missing workflows and verify existing ones')
    .description(
      'Create the workflows the service does not have (POST), read each back to verify it, and verify every ' +
        'existing one. Where the target allows it (allow, --allow), update the workflows changed in the file only ' +
        '(PUT) and delete those whose files were removed (DELETE); other changes are reported, never applied. ' +
        'A workflow is never created twice: creates are journaled and reconciled, and state is locked per target.',
    )
    .argument(
      '[paths...]',
      'only the definitions in these files or folders (as --only: workflows recorded in state elsewhere are left ' +
        'alone); each must be a definition of the project',
    )
    .addOption(formatOption(['human', 'json', 'markdown', 'github']))
    .option(
      '-o, --out <file>',
      'also write the result as JSON (what --format json prints; with --dry-run, the plan), for CI or a script',
    )
    .option('--dry-run', 'plan only: show what sync would do, send no POST')
    .option(
      '--plan <file>',
      'apply exactly this reviewed plan (from "wfsync plan --out"); refuse if it is stale',
    )
    .option('--base <git-ref>', 'as for plan: tell who changed a workflow from the definitions at this base')
    .option(
      '--lock-timeout <seconds>',
      'wait this long for another sync of the same target',
      parseNonNegativeInt,
      60,
    );
  addTargetOptions(command);
  addOnlyOption(command);
  addAllowOption(command);
  addReportUnusedDisableOption(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync sync                              # the default target (the embedded local service)\n' +
        '  wfsync sync --target development --plan plan.json\n' +
        '  wfsync sync --dry-run --only "billing-*"\n' +
        '  wfsync sync --format github --out sync.json   # CI: annotations, and the counts for a script\n' +
        "  wfsync sync services/billing/workflows   # a monorepo: one service's definitions\n" +
        '\nCtrl-C stops starting new creates, finishes the ones in flight and records them; a second Ctrl-C aborts.\n' +
        'Exit codes: 0 all created or in sync, 6 a person must act (drift, conflict…), 1 a workflow failed, 3 invalid, ' +
        '4 auth, 5 rate limited.',
    )
    .action(lazyAction(ctx, async () => (await import('./sync-run.js')).runSync));
}
