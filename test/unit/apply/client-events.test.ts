import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../../src/apply/events.js';
import { buildIdempotencyKey } from '../../../src/apply/idempotency.js';
import { clientEventsForProgress } from '../../../src/apply/workflow-context.js';

describe('clientEventsForProgress outside apply', () => {
  it('attributes a GET retry to the identifier in its path; a POST retry becomes a notice', () => {
    const events: ApplyEvent[] = [];
    const listener = clientEventsForProgress((event) => events.push(event));
    listener({
      type: 'retry',
      method: 'GET',
      path: '/api/v1/workflows/order-shipped',
      attempt: 2,
      delayMs: 500,
      reason: '503 Service Unavailable',
    });
    listener({
      type: 'retry',
      method: 'POST',
      path: '/v1/workflows',
      attempt: 3,
      delayMs: 0,
      reason: 'lost',
    });
    listener({ type: 'wait', method: 'GET', path: '/v1/workflows/a', delayMs: 50 });
    listener({ type: 'wait', method: 'GET', path: '/v1/workflows/a', delayMs: 2500 });
    listener({ type: 'request', method: 'GET', path: '/v1/workflows/a', attempt: 1 });
    expect(events).toEqual([
      {
        type: 'workflow',
        identifier: 'order-shipped',
        status: 'retrying',
        attempt: 2,
        delayMs: 500,
        message: '503 Service Unavailable',
      },
      { type: 'notice', message: 'POST /v1/workflows: lost' },
      { type: 'notice', message: "waiting 2.5s for the service's rate limit (a)" },
    ]);
  });
});

describe('buildIdempotencyKey', () => {
  const hash = `sha256:${'ab'.repeat(32)}`;

  it('is derived from target, identifier and the body hash', () => {
    expect(buildIdempotencyKey('staging', 'order-shipped', hash)).toBe(
      'wfsync:staging:order-shipped:abababababababab',
    );
    expect(buildIdempotencyKey('staging', 'order-shipped', `sha256:${'cd'.repeat(32)}`)).not.toBe(
      buildIdempotencyKey('staging', 'order-shipped', hash),
    );
  });

  it('stays printable ASCII within 255 characters whatever the target is called', () => {
    expect(buildIdempotencyKey('prod eu ☃', 'x', hash)).toBe(
      'wfsync:prod%20eu%20%E2%98%83:x:abababababababab',
    );
    expect(buildIdempotencyKey('lone\ud800', 'x', hash)).toBe('wfsync:lone%EF%BF%BD:x:abababababababab');
    const long = buildIdempotencyKey('t'.repeat(300), 'x', hash);
    expect(long).toMatch(/^wfsync:[0-9a-f]{32}:abababababababab$/);
    expect(buildIdempotencyKey('t'.repeat(300), 'y', hash)).not.toBe(long);
  });
});
