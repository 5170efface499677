import { describe, expect, it } from 'vitest';
import { slugifyV2 } from '../../../src/derive/slug.js';
import {
  identifierFileProblem,
  MAX_IDENTIFIER_FILE_LENGTH,
  quoteIdentifier,
} from '../../../src/pull/file-name.js';

describe('identifierFileProblem: the one way an identifier names a file', () => {
  it('accepts the identifiers the service derives', () => {
    for (const ok of ['order-shipped', 'a', 'x1', '2fa-code', 'a'.repeat(MAX_IDENTIFIER_FILE_LENGTH)]) {
      expect(identifierFileProblem(ok), ok).toBeUndefined();
    }
  });

  it.each([
    ['../../x', 'slug'],
    ['a/b', 'slug'],
    ['/etc/passwd', 'slug'],
    ['C:\\x', 'slug'],
    ['.', 'slug'],
    ['..', 'slug'],
    ['a\0b', 'slug'],
    ['Order-Shipped', 'slug'],
    ['order shipped', 'slug'],
    ['order--shipped', 'slug'],
    ['-order', 'slug'],
    ['order-', 'slug'],
    ['ordér', 'slug'],
    ['x.yaml', 'slug'],
    ['', 'empty'],
    ['a'.repeat(MAX_IDENTIFIER_FILE_LENGTH + 1), 'longer'],
  ])('refuses %j', (identifier, why) => {
    const problem = identifierFileProblem(identifier);
    expect(problem).toBeDefined();
    expect(problem).toContain(why === 'slug' ? 'not an identifier the service derives' : why);
  });

  it('refuses a value that is not text', () => {
    expect(identifierFileProblem(42)).toBe('it is not text');
    expect(identifierFileProblem({ toString: () => 'x' })).toBe('it is not text');
  });

  it('whatever it accepts is its own slug and holds no separator or dot', () => {
    for (const candidate of ['a-b', 'a_b', 'a.b', 'a b', 'ab', 'a-b-c', '0']) {
      if (identifierFileProblem(candidate) !== undefined) continue;
      expect(slugifyV2(candidate)).toBe(candidate);
      expect(candidate).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('quotes a refused identifier short, with control characters escaped', () => {
    expect(quoteIdentifier('../../x')).toBe('"../../x"');
    expect(quoteIdentifier('a\u001b[2Jb')).toBe('"a\\u001b[2Jb"');
    expect(quoteIdentifier('y'.repeat(100))).toBe(`"${'y'.repeat(60)}…"`);
    expect(quoteIdentifier(7)).toBe('number');
  });
});
