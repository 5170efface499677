import { readFileSync } from 'node:fs';

/** package.json next to the built code, read once. */
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  engines: { node: string };
};

/** The package version. */
export const VERSION: string = PACKAGE.version;

/**
 * What `wfsync --version` prints: the version first (so `cut -d' ' -f1` gives it), then the Node version and platform
 * a bug report needs. bin/wfsync.cjs prints the same line on its fast path (a test holds the two equal).
 */
export const VERSION_LINE = `${VERSION} (node ${process.version}; ${process.platform} ${process.arch})`;

/** The Node versions wfsync runs on: package.json's `engines.node` (`>=MAJOR.MINOR`). */
export const NODE_RANGE: string = PACKAGE.engines.node;
