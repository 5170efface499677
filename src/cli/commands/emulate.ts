import { Command, InvalidArgumentError, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { lazyAction, parseNonNegativeInt, parsePositiveInt } from '../run-options.js';
import type { EmulateFlags } from './emulate-run.js';

/** `wfsync emulate`: run the local copy of the service until SIGINT/SIGTERM, or `options.signal` (tests). */
export function emulateCommand(ctx: CommandContext, options: { signal?: AbortSignal } = {}): Command {
  return new Command('emulate')
    .summary('run a local copy of the service (for trying wfsync, CI and tests)')
    .description(
      'Run a faithful local copy of the service’s two workflow operations (create, retrieve) on a loopback ' +
        'address: same routes, auth, validation messages, server-filled fields and trigger identifiers; also the ' +
        'service’s update (PUT), status, delete and list, a Production environment with the changes API to promote ' +
        'to, and the key’s environment and notification groups (read-only). ' +
        'Workflows live in memory unless --data names a file. Runs until Ctrl+C (SIGINT) or SIGTERM.',
    )
    .option(
      '-p, --port <n>',
      'port to listen on (0: pick a free one and print it)',
      parseNonNegativeInt,
      4010,
    )
    .option('--host <address>', 'loopback address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'API key to accept (default: a generated one, printed at start)')
    .option('--data <file>', 'keep workflows in this JSON file across restarts')
    .addOption(
      new Option(
        '--slug-generation <generation>',
        'server generation: v1 (older) or v2 (newer) identifiers and bounds',
      )
        .choices(['v1', 'v2'])
        .default('v1'),
    )
    .option('--rate-limit <perSecond>', 'answer 429 past this many requests per second', parsePositiveInt)
    .option('--latency <ms>', 'processing time added to every request', parseNonNegativeInt)
    .option('--error-rate <rate>', 'chance (0..1) of answering 500 instead', parseRate)
    .option('--seed <n>', 'make injected faults and generated ids repeatable', parseNonNegativeInt)
    .option('--production-key <key>', 'a key of a Production environment (repeatable)', collect, [])
    .option(
      '--group <name[=id]>',
      'another notification group besides General (repeatable; id generated unless given)',
      parseGroup,
      [],
    )
    .option('-q, --quiet', 'do not print a line per request')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync emulate                                  # http://127.0.0.1:4010, key printed\n' +
        '  wfsync emulate --port 0 --data .wfsync/emulator.json\n' +
        '  wfsync emulate --rate-limit 5 --error-rate 0.1 --seed 7\n' +
        '  wfsync emulate --group transactional --production-key wfs_prod_example   # groups, a Production key\n',
    )
    .action(
      lazyAction(ctx, async () => {
        const { runEmulate } = await import('./emulate-run.js');
        return (c: CommandContext, flags: EmulateFlags) => runEmulate(c, flags, options.signal);
      }),
    );
}

function parseRate(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

/** `transactional` or `transactional=6650f0c0ffee00000000a001`. */
function parseGroup(value: string, previous: Array<{ name: string; id?: string }>) {
  const at = value.lastIndexOf('=');
  const name = (at === -1 ? value : value.slice(0, at)).trim();
  const id = at === -1 ? undefined : value.slice(at + 1).trim();
  if (name === '') throw new InvalidArgumentError('expected a group name, optionally =<24-hex id>');
  if (id !== undefined && !/^[0-9a-f]{24}$/.test(id))
    throw new InvalidArgumentError(`"${id}" is not a 24-character lower-case hex id`);
  return [...previous, { name, ...(id === undefined ? {} : { id }) }];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
