import { describe, expect, it } from 'vitest';
import { renderStateJson } from '../../../src/report/state.js';
import type { StateFile } from '../../../src/state/types.js';
import { parseJsonOutput } from '../../helpers/json-output.js';

const HASH = `sha256:${'a'.repeat(64)}`;

describe('state show --format json', () => {
  it('prints the journal as its schema describes it: an interrupted create and an interrupted update', () => {
    const state: StateFile = {
      version: 1,
      target: 'development',
      baseUrl: 'https://api.example.test',
      workflows: {
        welcome: {
          id: '6650f0c0ffee00000000a0b1',
          hash: HASH,
          origin: 'created',
          recordedAt: '2026-01-02T03:04:05.000Z',
        },
      },
      pending: {
        'order-shipped': {
          identifier: 'order-shipped',
          lookupIdentifiers: ['order-shipped'],
          name: 'Order shipped',
          hash: HASH,
          idempotencyKey: 'wfsync-1',
          startedAt: '2026-01-02T03:04:05.000Z',
        },
        welcome: {
          kind: 'update',
          identifier: 'welcome',
          id: '6650f0c0ffee00000000a0b1',
          hash: HASH,
          startedAt: '2026-01-02T03:04:06.000Z',
        },
      },
    };
    const document = parseJsonOutput('state', renderStateJson(state));
    expect(document.pending.welcome).toEqual(state.pending.welcome);
    expect(Object.keys(document.pending)).toEqual(['order-shipped', 'welcome']);
  });
});
