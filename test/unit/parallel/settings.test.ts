import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { resolveWorkerSettings } from '../../../src/parallel/settings.js';

describe('resolveWorkerSettings', () => {
  it('uses one worker per CPU besides the main thread by default, and none on a single CPU', () => {
    expect(resolveWorkerSettings({}, 2)).toEqual({ workers: 1, minFiles: 8_000 });
    expect(resolveWorkerSettings({}, 8)).toEqual({ workers: 7, minFiles: 8_000 });
    expect(resolveWorkerSettings({}, 1)).toEqual({ workers: 0, minFiles: 8_000 });
  });

  it('honours WFSYNC_WORKERS and WFSYNC_WORKERS_MIN_FILES (blank means unset)', () => {
    expect(resolveWorkerSettings({ WFSYNC_WORKERS: '0' }, 4)).toEqual({ workers: 0, minFiles: 8_000 });
    expect(resolveWorkerSettings({ WFSYNC_WORKERS: ' 3 ', WFSYNC_WORKERS_MIN_FILES: '1' }, 1)).toEqual({
      workers: 3,
      minFiles: 1,
    });
    expect(resolveWorkerSettings({ WFSYNC_WORKERS: '', WFSYNC_WORKERS_MIN_FILES: ' ' }, 2)).toEqual({
      workers: 1,
      minFiles: 8_000,
    });
  });

  it('rejects anything but a whole number as a usage error', () => {
    for (const value of ['-1', '1.5', 'two', '1e3', '1234567']) {
      expect(() => resolveWorkerSettings({ WFSYNC_WORKERS: value }, 2)).toThrow(UsageError);
    }
    expect(() => resolveWorkerSettings({ WFSYNC_WORKERS_MIN_FILES: 'lots' }, 2)).toThrow(
      'WFSYNC_WORKERS_MIN_FILES must be a whole number, got "lots"',
    );
  });
});
