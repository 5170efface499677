import { Command, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { lazyAction } from '../run-options.js';

export function typesCommand(ctx: CommandContext): Command {
  return new Command('types')
    .summary('write TypeScript types (or JSON Schemas) of every workflow’s trigger payload')
    .description(
      'Write the payload each workflow is triggered with, as the definitions say (declared trigger variables) and ' +
        'the templates read it (objects from {{a.b}}, arrays from {{#each}}, optional under {{#if}}): ' +
        'WorkflowPayloads, WorkflowIdentifier, WorkflowSubscriberFields and a TriggerWorkflow signature to type ' +
        'your trigger call with; or one JSON Schema per workflow for other languages. --check writes nothing and ' +
        'fails when the file is not what the definitions give (CI, pre-commit).',
    )
    .addOption(
      new Option('-f, --format <format>', 'what to write').choices(['ts', 'json-schema']).default('ts'),
    )
    .option(
      '-o, --out <file>',
      'the file to write (default: wfsync-payloads.ts, or wfsync-payloads.schema.json, beside the config file)',
    )
    .option('--check', 'write nothing; exit 3 when the file is missing or stale')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync types                                 # wfsync-payloads.ts\n' +
        '  wfsync types --out src/generated/workflows.ts\n' +
        '  wfsync types --check                         # in CI: fails when a definition changed and the file did not\n' +
        '  wfsync types --format json-schema            # wfsync-payloads.schema.json\n' +
        '\nExit codes: 0 written (or up to date), 1 the file could not be written, 3 invalid definitions or config,\n' +
        'or (--check) the file is missing or stale, 64 usage error.',
    )
    .action(lazyAction(ctx, async () => (await import('./types-run.js')).runTypes));
}
