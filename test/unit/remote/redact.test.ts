import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact } from '../../../src/remote/redact.js';
import { runs } from '../../helpers/fc-runs.js';

describe('redact', () => {
  it('removes every occurrence of a secret, and its URL-encoded form', () => {
    expect(redact('key=abc/def+1 and abc/def+1', ['abc/def+1'])).toBe('key=[REDACTED] and [REDACTED]');
    expect(redact('q=abc%2Fdef%2B1', ['abc/def+1'])).toBe('q=[REDACTED]');
  });

  it('removes any ApiKey credential, known or not', () => {
    expect(redact('Authorization: ApiKey sk_live_123', [])).toBe('Authorization: ApiKey [REDACTED]');
    expect(redact('"authorization":"ApiKey other"', [])).toBe('"authorization":"ApiKey [REDACTED]"');
  });

  it('leaves text alone when there is nothing to hide, and ignores tiny secrets', () => {
    expect(redact('GET /v1/workflows/x: 404', ['longsecret'])).toBe('GET /v1/workflows/x: 404');
    expect(redact('a b c', ['a'])).toBe('a b c');
  });

  it('never leaves a secret in the output', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 4, maxLength: 40 }),
          fc.constantFrom('REDA', 'D]ab', '[RED', 'ACTED]x'),
        ),
        fc.array(fc.string(), { maxLength: 5 }),
        (secret, parts) => {
          const text = parts.join(secret);
          expect(redact(text, [secret]).includes(secret)).toBe(false);
        },
      ),
      { numRuns: runs(500) },
    );
  });
});
