#!/usr/bin/env node
// The pictures in the docs (docs/images/*.png), taken again by the Chromium tests that check what they show, with
// WFSYNC_UPDATE_DOC_IMAGES=1 (test/e2e/doc-images.ts). `npm run docs:images` builds first; the script alone runs
// those tests against the build there is. Needs Debian's chromium (CHROMIUM_PATH to use another).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The tests that take a docs picture; each such test's name starts with "the docs picture". */
export const DOC_IMAGE_TESTS = ['test/e2e/preview-page.test.ts', 'test/e2e/pr-comment-picture.test.ts'];

const ran = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e', ...DOC_IMAGE_TESTS, '-t', 'the docs picture'],
  {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
    env: { ...process.env, WFSYNC_UPDATE_DOC_IMAGES: '1' },
  },
);
process.exitCode = ran.status ?? 1;
