import { describe, expect, test } from 'vitest';
import { suggestName, typoDistance } from '../../../src/text.js';

describe('typoDistance', () => {
  test.each([
    ['email', 'email', 0],
    ['emial', 'email', 1],
    ['emal', 'email', 1],
    ['emaill', 'email', 1],
    ['smss', 'sms', 1],
    ['', 'sms', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(typoDistance(a, b)).toBe(distance);
    expect(typoDistance(b, a)).toBe(distance);
  });
});

describe('suggestName', () => {
  const stepKeys = ['name', 'uuid', 'active', 'shouldStopOnFail', 'template', 'filters', 'metadata'];

  test('typos, transpositions, case and separators', () => {
    expect(suggestName('shouldStopOnFial', stepKeys)).toBe('shouldStopOnFail');
    expect(suggestName('should_stop_on_fail', stepKeys)).toBe('shouldStopOnFail');
    expect(suggestName('Template', stepKeys)).toBe('template');
    expect(suggestName('filter', stepKeys)).toBe('filters');
    expect(suggestName('metdata', stepKeys)).toBe('metadata');
  });

  test('an abbreviation of exactly one candidate', () => {
    expect(suggestName('warn', ['error', 'warning', 'info', 'off'])).toBe('warning');
    expect(suggestName('sub', ['subject', 'subtitle'])).toBeUndefined();
  });

  test('nothing when no candidate is close, for empty input, or for the input itself', () => {
    expect(suggestName('priority', stepKeys)).toBeUndefined();
    expect(suggestName('', stepKeys)).toBeUndefined();
    expect(suggestName('name', ['name'])).toBeUndefined();
    // Short names tolerate one edit only: `on` is not a typo of `name`.
    expect(suggestName('on', ['name', 'uuid'])).toBeUndefined();
  });

  test('ties go to the earlier candidate', () => {
    expect(suggestName('cat', ['bat', 'hat'])).toBe('bat');
    expect(suggestName('cat', ['hat', 'bat'])).toBe('hat');
  });
});
