import { readFileSync } from 'node:fs';

/** The package version, read once from package.json next to the built code. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * What `wfsync --version` prints: the version first (so `cut -d' ' -f1` gives it), then the Node version and platform
 * a bug report needs. bin/wfsync.cjs prints the same line on its fast path (a test holds the two equal).
 */
export const VERSION_LINE = `${VERSION} (node ${process.version}; ${process.platform} ${process.arch})`;
