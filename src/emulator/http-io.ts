import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { JsonTooDeepError, parseJson } from '../json.js';
import { badRequest, type EmulatorHttpError } from './http-error.js';
import type { LateFault } from './types.js';

/** Request bodies and responses on the wire, as Express's body parser and a (sometimes broken) proxy do them. */

/** Express `json({limit: '20mb'})`. */
const BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/** Read the whole body; past the limit, keep draining (so the client can read our 413) but keep nothing. */
export function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > BODY_LIMIT_BYTES;
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
    // A client that hangs up mid-body never sends 'end'.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before sending the whole body'));
    });
  });
}

/**
 * body-parser's `json()`: only `application/json` bodies are parsed (anything else leaves the body `{}`), an empty
 * body is `{}`, and in strict mode the text must start with `{` or `[`.
 */
export function parseJsonBody(contentType: string | undefined, text: string): unknown {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') return {};
  if (text.trim() === '') return {};
  const first = /\S/.exec(text);
  if (first !== null && first[0] !== '{' && first[0] !== '[')
    throw badRequest(strictViolationMessage(text, first.index));
  try {
    return parseJson(text);
  } catch (error) {
    // body-parser takes any depth; the emulator refuses what it would later walk (building, hashing the body).
    throw badRequest(
      error instanceof JsonTooDeepError ? `request body ${error.message}` : (error as Error).message,
    );
  }
}

/** body-parser's trick: parse the text with `#` from the offending character on, then put the text back. */
function strictViolationMessage(text: string, index: number): string {
  const partial = text.slice(0, index) + '#'.repeat(text.length - index);
  try {
    JSON.parse(partial);
    return 'strict violation';
  } catch (error) {
    return (error as Error).message.replace(/#+/g, (run) => text.slice(index, index + run.length));
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  contentType?: string;
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers, body: JSON.stringify(body) };
}

export function errorAnswer(
  error: EmulatorHttpError,
  body: unknown,
  headers: Record<string, string>,
): Answer {
  return jsonAnswer(error.status, body, { ...headers, ...error.headers });
}

/** A proxy's 502 page (what a client meets when something in front of the service fails). */
export const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * Send an answer, or break it as the late fault says: `reset-after` destroys the socket without a byte,
 * `truncate-body` delivers only the first half of the body (with a matching Content-Length, as a broken proxy
 * does), `slow-body` sends the headers at once and the body in ten pieces over `slowBodyMs`.
 */
export async function sendAnswer(
  res: ServerResponse,
  answer: Answer,
  late: LateFault | undefined,
  slow: { ms: number; signal: AbortSignal },
): Promise<void> {
  if (late === 'reset-after') {
    res.socket?.destroy();
    return;
  }
  const bytes = Buffer.from(answer.body, 'utf8');
  const body = late === 'truncate-body' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
  res.writeHead(answer.status, {
    'Content-Type': answer.contentType ?? 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    ...answer.headers,
  });
  if (late !== 'slow-body' || body.length === 0) {
    res.end(body);
    return;
  }
  res.flushHeaders();
  const pieces = 10;
  const size = Math.ceil(body.length / pieces);
  for (let i = 0; i < pieces && !res.destroyed && !slow.signal.aborted; i++) {
    await delay(slow.ms / pieces, undefined, { signal: slow.signal }).catch(() => undefined);
    res.write(body.subarray(i * size, (i + 1) * size));
  }
  res.end();
}
