import type { ApplyEvent } from '../../../src/apply/events.js';

/** A short sync as apply reports it: one recovered create, three lookups, two creates (one retried), one failure. */
export const SYNC_EVENTS: ApplyEvent[] = [
  { type: 'phase', phase: 'lock' },
  { type: 'phase', phase: 'reconcile', total: 1 },
  { type: 'workflow', identifier: 'trial-ending', status: 'fetching' },
  {
    type: 'workflow',
    identifier: 'trial-ending',
    status: 'done',
    message:
      'recovered an interrupted create: it had been created (id 65f1a2b3c4d5e6f708192a3b); recorded without sending it again',
  },
  { type: 'phase', phase: 'fetch', total: 3 },
  { type: 'workflow', identifier: 'order-shipped', status: 'fetching' },
  { type: 'workflow', identifier: 'comment-mention', status: 'fetching' },
  { type: 'workflow', identifier: 'order-shipped', status: 'done', message: 'not found by identifier' },
  { type: 'workflow', identifier: 'trial-ending', status: 'fetching' },
  { type: 'workflow', identifier: 'comment-mention', status: 'done', message: 'not found by identifier' },
  {
    type: 'workflow',
    identifier: 'trial-ending',
    status: 'done',
    message: 'found by id (id 65f1a2b3c4d5e6f708192a3b)',
  },
  { type: 'phase', phase: 'plan' },
  { type: 'phase', phase: 'create', total: 2 },
  { type: 'workflow', identifier: 'order-shipped', status: 'creating' },
  { type: 'workflow', identifier: 'comment-mention', status: 'creating' },
  {
    type: 'workflow',
    identifier: 'comment-mention',
    status: 'retrying',
    attempt: 2,
    delayMs: 1500,
    message: '503 Service Unavailable',
  },
  { type: 'workflow', identifier: 'order-shipped', status: 'verifying' },
  {
    type: 'workflow',
    identifier: 'order-shipped',
    status: 'done',
    outcome: 'created',
    message: 'id 65f1a2b3c4d5e6f708192a40',
  },
  { type: 'notice', message: "waiting 2.0s for the service's rate limit (comment-mention)" },
  {
    type: 'workflow',
    identifier: 'comment-mention',
    status: 'done',
    outcome: 'failed',
    message: 'the service rejected it: POST /v1/workflows: 400 Unexpected error: message template is missing',
  },
  { type: 'phase', phase: 'done' },
];
