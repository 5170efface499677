import { describe, expect, it } from 'vitest';
import { buildProjectionDiff } from '../../../src/plan/diff.js';

describe('buildProjectionDiff', () => {
  it('diffs the YAML of both projections under the service and file headers, with 3 lines of context', () => {
    const service = { name: 'a', l1: 1, l2: 2, l3: 3, l4: 4, l5: 5 };
    const file = { ...service, name: 'b' };
    expect(
      buildProjectionDiff({ service, file, serviceName: 'on service', fileName: 'workflows/a.yaml' }),
    ).toBe(
      [
        '--- service: on service',
        '+++ workflows/a.yaml',
        '@@ -1,4 +1,4 @@',
        '-name: a',
        '+name: b',
        ' l1: 1',
        ' l2: 2',
        ' l3: 3',
        '',
      ].join('\n'),
    );
  });

  it('keeps a long changed line as one -/+ pair (no folding)', () => {
    const long = (word: string) => Array.from({ length: 30 }, () => word).join(' ');
    const diff = buildProjectionDiff({
      service: { content: long('old') },
      file: { content: long('new') },
      serviceName: 's',
      fileName: 'f.yaml',
    });
    expect(diff.split('\n')).toEqual([
      '--- service: s',
      '+++ f.yaml',
      '@@ -1,1 +1,1 @@',
      `-content: ${long('old')}`,
      `+content: ${long('new')}`,
      '',
    ]);
  });

  it('writes a value that appears twice in full both times (no YAML anchors)', () => {
    const shared = { url: 'https://example.com' };
    const diff = buildProjectionDiff({
      service: { a: shared, b: shared, c: 1 },
      file: { a: shared, b: shared, c: 2 },
      serviceName: 's',
      fileName: 'f.yaml',
    });
    expect(diff).not.toMatch(/[&*]a1/);
    expect(diff.match(/ {2}url: https:\/\/example\.com/g)).toHaveLength(2);
  });
});
