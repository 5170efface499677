import { type RequestRecord, startEmulator } from '../../emulator/index.js';
import { ExitCode } from '../../exit-codes.js';
import { type CommandContext, handOverToNodeStreams } from '../context.js';
import { onInterrupt } from '../interrupt.js';

export interface EmulateFlags {
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
  group: Array<{ name: string; id?: string }>;
  quiet?: boolean;
}

export async function runEmulate(
  ctx: CommandContext,
  flags: EmulateFlags,
  signal: AbortSignal | undefined,
): Promise<number> {
  // It serves until Ctrl-C: a reader that stops reading must not stop it.
  handOverToNodeStreams(ctx);
  const emulator = await startEmulator({
    host: flags.host,
    port: flags.port,
    apiKey: flags.apiKey,
    productionKeys: flags.productionKey,
    notificationGroups: flags.group,
    dataFile: flags.data,
    slugGeneration: flags.slugGeneration,
    rateLimit: flags.rateLimit === undefined ? false : { limit: flags.rateLimit, windowSeconds: 1 },
    faults: { latencyMs: flags.latency, errorRate: flags.errorRate },
    seed: flags.seed,
    onRequest: flags.quiet ? undefined : (record: RequestRecord) => ctx.stdout.write(formatRequest(record)),
  });
  // A key the user chose is theirs to know; only a generated one needs showing.
  const shownKey = flags.apiKey === undefined ? emulator.apiKey : '<your --api-key>';
  ctx.stdout.write(
    `wfsync emulator listening on ${emulator.url} (API key: ${shownKey})\n` +
      `  notification group id: ${emulator.notificationGroupId}\n` +
      otherGroups(emulator.notificationGroups.slice(1)) +
      `  use it: WFSYNC_BASE_URL=${emulator.url} WFSYNC_API_KEY=${shownKey} WFSYNC_NOTIFICATION_GROUP_ID=${emulator.notificationGroupId} wfsync sync --target dev\n` +
      `  ${flags.data === undefined ? 'workflows are kept in memory' : `workflows are kept in ${flags.data}`}; ` +
      'stop with Ctrl+C\n',
  );
  await waitForStop(signal);
  await emulator.close();
  ctx.stdout.write('wfsync emulator stopped\n');
  return ExitCode.Ok;
}

function otherGroups(groups: ReadonlyArray<{ id: string; name: string }>): string {
  if (groups.length === 0) return '';
  return `  other notification groups: ${groups.map((g) => `${g.name} ${g.id}`).join(', ')}\n`;
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
      restore();
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const restore = onInterrupt(stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
  });
}
