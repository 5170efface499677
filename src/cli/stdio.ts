/**
 * stdout and stderr for a run. Node makes `process.stdout` on first use: for a pipe or a socket (a CI log, a
 * pre-commit hook's caller, `| less`) a net.Socket, which loads net and Node's stream modules on every start-up
 * (~14 M instructions of a 10-file `validate` on Node 24, `npm run bench:startup`). What wfsync writes there is text
 * written whole, in order, so to a pipe, a socket or a file it is written with fs.writeSync instead: what Node's
 * stream does on Linux too (stdio pipes and files are written synchronously there), without loading it.
 *
 * A terminal (and anything else: /dev/null, a closed descriptor) keeps Node's own stream, which knows its width and
 * colours. A reader that went away (EPIPE) ends the writing quietly, as for Node's stream (bin/wfsync.cjs); a
 * descriptor its owner made non-blocking and whose pipe is full (EAGAIN) hands the rest, and every later write, to
 * Node's stream, which waits for the reader. A command that serves or watches until Ctrl-C hands both to Node's
 * streams first (handOver, through context.ts), so a reader that stops reading never blocks its event loop.
 */
import { EventEmitter } from 'node:events';
import { fstatSync, writeSync } from 'node:fs';

type Name = 'stdout' | 'stderr';
type Callback = (error?: Error | null) => void;
const FD: Record<Name, number> = { stdout: 1, stderr: 2 };

/** The stream to write `name` through: a direct writer for a pipe, a socket or a file; otherwise Node's. */
export function openStdio(name: Name): NodeJS.WritableStream & { isTTY?: boolean } {
  const fd = FD[name];
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile())
      return new DirectWriter(fd, () => process[name]) as unknown as NodeJS.WritableStream;
  } catch {
    // No such descriptor: Node's stream knows what to do.
  }
  return process[name];
}

/**
 * The part of a Writable wfsync uses (write, end, the events writeOutput listens to), writing with writeSync. Every
 * write has been written (or failed) by the time write() returns; its callback runs on the next tick, as a
 * stream's does.
 */
export class DirectWriter extends EventEmitter {
  readonly writable = true;
  destroyed = false;
  /** Node's stream, once a full non-blocking pipe made it take over. */
  private fallback: NodeJS.WritableStream | undefined;

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WritableStream,
    private readonly write1: (fd: number, data: Uint8Array) => number = writeSync,
  ) {
    super();
  }

  /** From now on, every write goes through Node's stream (which queues what a slow reader has not taken yet). */
  handOver(): void {
    if (!this.destroyed) this.fallback ??= this.nodeStream();
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    const text =
      typeof encoding === 'string' && typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    if (this.fallback) return this.fallback.write(text, done);
    if (this.destroyed) {
      if (done) process.nextTick(done, closedError());
      return false;
    }
    const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    let written = 0;
    try {
      while (written < data.length) written += this.write1(this.fd, data.subarray(written));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        this.fallback = this.nodeStream();
        return this.fallback.write(data.subarray(written), done);
      }
      this.fail(error as Error, code, done);
      return false;
    }
    if (done) process.nextTick(done, null);
    return true;
  }

  end(
    chunk?: string | Uint8Array | Callback,
    encoding?: BufferEncoding | Callback,
    callback?: Callback,
  ): this {
    const done = [chunk, encoding, callback].find((arg): arg is Callback => typeof arg === 'function');
    if (chunk !== undefined && typeof chunk !== 'function')
      this.write(chunk, typeof encoding === 'string' ? encoding : undefined);
    // stdout and stderr are never closed (as Node's are not): end only says so.
    if (done) process.nextTick(done);
    process.nextTick(() => this.emit('finish'));
    return this;
  }

  /**
   * A failed write: the callback told, then (a reader gone, EPIPE) nothing more is written, quietly; any other
   * error is also emitted, as a stream emits it (thrown when nobody listens).
   */
  private fail(error: Error, code: string | undefined, done: Callback | undefined): void {
    this.destroyed = true;
    process.nextTick(() => {
      done?.(error);
      if (code !== 'EPIPE') this.emit('error', error);
      this.emit('close');
    });
  }
}

function closedError(): Error {
  return Object.assign(new Error('write after the reader went away'), { code: 'ERR_STREAM_DESTROYED' });
}
