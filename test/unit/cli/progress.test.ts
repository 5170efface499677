import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { chooseProgressKind, createProgress } from '../../../src/cli/progress/index.js';
import { SYNC_EVENTS } from './events-fixture.js';

class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns = 100;
  rows = 40;
  constructor(isTTY: boolean) {
    super();
    this.isTTY = isTTY;
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing terminal escapes is the point
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

describe('plain progress', () => {
  it('writes one line per phase heading, retry, notice and finished workflow', async () => {
    const stream = new Capture(false);
    const progress = createProgress('plain', stream);
    for (const event of SYNC_EVENTS) progress.onEvent(event);
    await progress.done();
    expect(stream.text).toBe(
      [
        'checking 1 interrupted create',
        '[1/1] trial-ending: recovered an interrupted create: it had been created (id 65f1a2b3c4d5e6f708192a3b); recorded without sending it again',
        'looking up 3 workflows',
        'creating 2 workflows',
        '  comment-mention: retrying (attempt 2 in 1.5s: 503 Service Unavailable)',
        '[1/2] order-shipped: created (id 65f1a2b3c4d5e6f708192a40)',
        "waiting 2.0s for the service's rate limit (comment-mention)",
        '[2/2] comment-mention: failed (the service rejected it: POST /v1/workflows: 400 Unexpected error: message template is missing)',
        '',
      ].join('\n'),
    );
  });

  it('shows control characters from the service as visible symbols, one event per line', async () => {
    const stream = new Capture(false);
    const progress = createProgress('plain', stream);
    progress.onEvent({ type: 'phase', phase: 'create', total: 1 });
    progress.onEvent({
      type: 'workflow',
      identifier: 'x',
      status: 'done',
      outcome: 'failed',
      message: 'bad\u001b[2Jname\nsecond line',
    });
    await progress.done();
    expect(stream.text).toBe('creating 1 workflow\n[1/1] x: failed (bad\u241b[2Jname\u240asecond line)\n');
  });

  it('says when there is nothing to create', async () => {
    const stream = new Capture(false);
    const progress = createProgress('plain', stream);
    progress.onEvent({ type: 'phase', phase: 'reconcile', total: 0 });
    progress.onEvent({ type: 'phase', phase: 'fetch', total: 1 });
    progress.onEvent({ type: 'phase', phase: 'create', total: 0 });
    await progress.done();
    expect(stream.text).toBe('looking up 1 workflow\nnothing to create\n');
  });
});

describe('quiet progress', () => {
  it('writes nothing', async () => {
    const stream = new Capture(false);
    const progress = createProgress('quiet', stream);
    for (const event of SYNC_EVENTS) progress.onEvent(event);
    await progress.done();
    expect(stream.text).toBe('');
  });
});

describe('terminal progress (listr2)', () => {
  it('leaves one final line per phase, with failures and reconcile results under their phase', async () => {
    const stream = new Capture(true);
    const progress = createProgress('tty', stream);
    for (const event of SYNC_EVENTS) progress.onEvent(event);
    await progress.done();
    const lines = stream.text.replace(ANSI, '').split('\n');
    const finals = [
      '✔ Locked the state file',
      '✔ Checked 1 interrupted create',
      '✔ Looked up 3 workflows',
      '✔ Planned',
      '✖ Created 1 of 2 workflows (1 failed)',
    ];
    let from = 0;
    for (const line of finals) {
      const at = lines.indexOf(line, from);
      expect(at, `${line}\n--- in ---\n${lines.join('\n')}`).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
    const text = lines.join('\n');
    expect(text).toContain('trial-ending: recovered an interrupted create');
    expect(text).toContain('✖ comment-mention: the service rejected it');
    // The notice showed while it mattered, and is not among the final lines.
    const final = text.slice(text.lastIndexOf('✖ Created 1 of 2 workflows (1 failed)'));
    expect(text).toContain("waiting 2.0s for the service's rate limit");
    expect(final).not.toContain('waiting');
    expect(final).toContain('✖ comment-mention: the service rejected it');
  });

  it('shows the workflows in flight, with retries, and counts the rest', async () => {
    const stream = new Capture(true);
    const progress = createProgress('tty', stream, { maxRows: 2 });
    progress.onEvent({ type: 'phase', phase: 'create', total: 5 });
    for (const id of ['a', 'b', 'c', 'd'])
      progress.onEvent({ type: 'workflow', identifier: id, status: 'creating' });
    progress.onEvent({
      type: 'workflow',
      identifier: 'a',
      status: 'retrying',
      attempt: 2,
      delayMs: 500,
      message: '500',
    });
    // listr2 draws asynchronously: wait until the rows are on screen.
    await vi.waitFor(() => expect(stream.text.replace(ANSI, '')).toContain('…and 2 more'));
    const live = stream.text.replace(ANSI, '');
    expect(live).toContain('Creating workflows (0/5)');
    expect(live).toContain('a: retrying (attempt 2 in 500ms: 500)');
    expect(live).toContain('b: creating');
    expect(live).not.toContain('c: creating');
    expect(live).toContain('…and 2 more');
    for (const id of ['a', 'b', 'c', 'd', 'e'])
      progress.onEvent({ type: 'workflow', identifier: id, status: 'done', outcome: 'created' });
    progress.onEvent({ type: 'phase', phase: 'done' });
    await progress.done();
    expect(stream.text.replace(ANSI, '')).toContain('✔ Created 5 of 5 workflows');
  });
});

describe('terminal progress with 1,000 workflows', () => {
  it('shows a few rows and a count, whatever the number in flight', async () => {
    const stream = new Capture(true);
    const progress = createProgress('tty', stream);
    progress.onEvent({ type: 'phase', phase: 'fetch', total: 1000 });
    for (let i = 0; i < 1000; i++)
      progress.onEvent({ type: 'workflow', identifier: `w${i}`, status: 'fetching' });
    await vi.waitFor(() => expect(stream.text.replace(ANSI, '')).toContain('…and 992 more'));
    const lastFrame = stream.text.replace(ANSI, '').split('Looking up workflows (0/1000)').at(-1) ?? '';
    expect(lastFrame.trim().split('\n')).toHaveLength(9);
    for (let i = 0; i < 1000; i++)
      progress.onEvent({ type: 'workflow', identifier: `w${i}`, status: 'done', message: 'found' });
    await progress.done();
    expect(stream.text.replace(ANSI, '')).toContain('✔ Looked up 1000 workflows');
  });
});

describe('chooseProgressKind', () => {
  it('quiet wins; CI, a dumb terminal or a pipe get plain lines; a terminal gets listr2', () => {
    const tty = { isTTY: true };
    expect(chooseProgressKind({ quiet: true, stream: tty, env: {} })).toBe('quiet');
    expect(chooseProgressKind({ quiet: false, stream: tty, env: { CI: 'true' } })).toBe('plain');
    expect(chooseProgressKind({ quiet: false, stream: tty, env: { TERM: 'dumb' } })).toBe('plain');
    expect(chooseProgressKind({ quiet: false, stream: {}, env: {} })).toBe('plain');
    expect(chooseProgressKind({ quiet: false, stream: tty, env: { CI: 'false' } })).toBe('tty');
    expect(chooseProgressKind({ quiet: false, stream: tty, env: {} })).toBe('tty');
  });
});
