import { Command, InvalidArgumentError, Option } from 'commander';
import { type EmulatorOptions, type RequestRecord, startEmulator } from '../../emulator/index.js';
import { ExitCode } from '../../exit-codes.js';
import type { CommandContext } from '../context.js';
import { parseNonNegativeInt, parsePositiveInt } from '../parse-args.js';

interface EmulateFlags {
  port: number;
  host: string;
  apiKey?: string;
  data?: string;
  slugGeneration: 'v1' | 'v2';
  rateLimit?: number;
  latency?: number;
  errorRate?: number;
  seed?: number;
  productionKey: string[];
  quiet?: boolean;
}

export interface EmulateCommandOptions {
  /** Stops the emulator like SIGINT does (tests). */
  signal?: AbortSignal;
}

/** `wfsync emulate`: run the local copy of the service until SIGINT/SIGTERM. */
export function emulateCommand(ctx: CommandContext, options: EmulateCommandOptions = {}): Command {
  return new Command('emulate')
    .summary('run a local copy of the service (for trying wfsync, CI and tests)')
    .description(
      'Run a faithful local copy of the service’s two workflow operations (create, retrieve) on a loopback\n' +
        'address: same routes, auth, validation messages, server-filled fields and trigger identifiers.\n' +
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
    .option('-q, --quiet', 'do not print a line per request')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync emulate                                  # http://127.0.0.1:4010, key printed\n' +
        '  wfsync emulate --port 0 --data .wfsync/emulator.json\n' +
        '  wfsync emulate --rate-limit 5 --error-rate 0.1 --seed 7\n',
    )
    .action(async (flags: EmulateFlags) => {
      ctx.exitCode = await runEmulate(ctx, flags, options.signal);
    });
}

async function runEmulate(
  ctx: CommandContext,
  flags: EmulateFlags,
  signal: AbortSignal | undefined,
): Promise<number> {
  const faults: NonNullable<EmulatorOptions['faults']> = {
    ...(flags.latency === undefined ? {} : { latencyMs: flags.latency }),
    ...(flags.errorRate === undefined ? {} : { errorRate: flags.errorRate }),
  };
  const emulator = await startEmulator({
    host: flags.host,
    port: flags.port,
    ...(flags.apiKey === undefined ? {} : { apiKey: flags.apiKey }),
    productionKeys: flags.productionKey,
    ...(flags.data === undefined ? {} : { dataFile: flags.data }),
    slugGeneration: flags.slugGeneration,
    rateLimit: flags.rateLimit === undefined ? false : { limit: flags.rateLimit, windowSeconds: 1 },
    ...(Object.keys(faults).length === 0 ? {} : { faults }),
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.quiet ? {} : { onRequest: (record: RequestRecord) => ctx.stdout.write(formatRequest(record)) }),
  });
  // A key the user chose is theirs to know; only a generated one needs showing.
  const shownKey = flags.apiKey === undefined ? emulator.apiKey : '<your --api-key>';
  ctx.stdout.write(
    `wfsync emulator listening on ${emulator.url} (API key: ${shownKey})\n` +
      `  notification group id: ${emulator.notificationGroupId}\n` +
      `  use it: WFSYNC_BASE_URL=${emulator.url} WFSYNC_API_KEY=${shownKey} wfsync sync\n` +
      `  ${flags.data === undefined ? 'workflows are kept in memory' : `workflows are kept in ${flags.data}`}; ` +
      'stop with Ctrl+C\n',
  );
  await waitForStop(signal);
  await emulator.close();
  ctx.stdout.write('wfsync emulator stopped\n');
  return ExitCode.Ok;
}

function formatRequest(record: RequestRecord): string {
  const fault = record.fault === undefined ? '' : ` [fault: ${record.fault}]`;
  const key = record.idempotencyKey === undefined ? '' : ` (Idempotency-Key ${record.idempotencyKey})`;
  const status = record.status === 0 ? 'no answer' : String(record.status);
  return `${record.time} ${record.method} ${record.path} → ${status}${key}${fault}\n`;
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
  });
}

function parseRate(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
