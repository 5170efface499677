import { Command, InvalidArgumentError, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { formatOption, lazyAction } from '../run-options.js';

export function previewCommand(ctx: CommandContext): Command {
  return new Command('preview')
    .summary('show every step as the recipient will see it, rendered as the service renders it')
    .description(
      'Render the steps of workflow definitions offline, the way the service renders them at send time (Handlebars ' +
        'with its helpers, escaping and context), with sample data made from the trigger variables, or the payload, ' +
        'subscriber and digest events you give. Needs no API key and no network. --serve opens a local page that ' +
        'renders again as you type and as you save.',
    )
    .argument(
      '[workflows...]',
      'definition files, directories or trigger identifiers (default: every workflow)',
    )
    .option('--step <name|index>', 'only this step: its name or its 0-based index')
    .option(
      '--payload <file>',
      'the trigger payload, a JSON object (default: sample values from the trigger variables)',
    )
    .option('--subscriber <file>', 'the subscriber, a JSON object (default: a sample subscriber)')
    .option(
      '--events <file>',
      "a digest's collected events, a JSON array of trigger payloads (default: three samples)",
    )
    .option(
      '--preview <name>',
      'a named payload from the <definition>.previews.json file next to the definition',
    )
    .addOption(formatOption(['human', 'json', 'html']))
    .option('-o, --out <file>', 'write the preview to a file instead of stdout')
    .option(
      '--allow-images',
      'let emails load remote images (html and --serve); nothing else remote ever loads',
    )
    .option('--serve', 'serve a live preview page on 127.0.0.1 (Ctrl-C to stop)')
    .addOption(
      new Option('--port <n>', 'port for --serve (default: 4777; 0 picks a free one)').argParser(parsePort),
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync preview                                  # every workflow, every step, in the terminal\n' +
        '  wfsync preview order-shipped --step 0           # one step of one workflow\n' +
        '  wfsync preview workflows/order.yaml --payload big-order.json\n' +
        '  wfsync preview order-shipped --preview refund   # a payload kept in workflows/order-shipped.previews.json\n' +
        '  wfsync preview --format html -o preview.html    # one standalone page, no scripts\n' +
        '  wfsync preview --serve                          # http://127.0.0.1:4777, live\n' +
        '\nExit codes: 0 rendered, 3 invalid definitions or input files, or a step the service would fail to\n' +
        'render, 64 usage error (unknown workflow or step, missing file, port in use).',
    )
    .action(lazyAction(ctx, async () => (await import('./preview-run.js')).runPreview));
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return Number(value);
}
