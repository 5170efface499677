import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm test` builds dist/ before vitest runs, so e2e tests spawn the real CLI. They share one compile cache
// (src/cli/compile-cache.ts) in a folder of this run's own, which the spawned CLIs find in WFSYNC_COMPILE_CACHE:
// every e2e test after the first of each command runs with a warm cache, many at once, as users' runs do; and the
// user's own cache folder is left alone.
let folder: string | undefined;

export function setup(): void {
  folder = mkdtempSync(join(tmpdir(), 'wfsync-test-compile-cache-'));
  process.env.WFSYNC_COMPILE_CACHE = folder;
}

export function teardown(): void {
  if (folder) rmSync(folder, { recursive: true, force: true });
}
