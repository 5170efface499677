import type { ClientEvent } from '../remote/index.js';

/**
 * `--verbose`: one stderr line per client event (request, response, retry, wait, reconcile). Events carry method,
 * path, status and timings only — never headers, so never the API key.
 */
export function verboseClientLog(
  stream: NodeJS.WritableStream,
  now: () => number = Date.now,
): (event: ClientEvent) => void {
  const start = now();
  return (event) => {
    const parts = [`+${((now() - start) / 1000).toFixed(3)}s`, event.type, event.method, event.path];
    if (event.status !== undefined) parts.push(String(event.status));
    if (event.attempt !== undefined) parts.push(`attempt ${event.attempt}`);
    if (event.delayMs !== undefined) parts.push(`wait ${event.delayMs} ms`);
    if (event.reason) parts.push(`(${event.reason})`);
    stream.write(`wfsync: ${parts.join(' ')}\n`);
  };
}
