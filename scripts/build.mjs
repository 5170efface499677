// Builds dist/ from src/: one bundle of wfsync's own code, packages left as imports. Run by `npm ci` (prepare),
// `npm run build` and the test command. Types are checked by `npm run typecheck` (tsc), not here.
//
// Why a bundle rather than tsc's one file per module: Node loads each ES module on its own (resolve, read, compile,
// link), and a `validate` run loads ~100 of ours. One chunk per way into the code costs less at
// every start-up (measured in the README's Benchmarks).
//
// The layout is flat, every file straight in dist/: the entries cli.js and emulator.js (the local service, for the
// sync benchmark), and shared chunks that the commands other than validate load when they run (`--version` loads
// nothing of dist/). src/version.ts reads ../package.json, which holds from src/ and dist/ alike.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
try {
  require.resolve('rolldown');
} catch {
  // Installed as a dependency of another project (no devDependencies): dist/ ships prebuilt.
  process.exit(0);
}
const { build } = await import('rolldown');

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
rmSync(dist, { recursive: true, force: true });

await build({
  cwd: root,
  input: {
    cli: 'src/cli/main.ts',
    emulator: 'src/emulator/index.ts',
  },
  platform: 'node',
  // Packages stay imports: installed once by npm, updated by npm, and loaded lazily where the code says so.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  tsconfig: 'tsconfig.json',
  transform: {
    target: 'node20.19',
    // A random id per build: `validate --cache` keys its results by it (src/cache/key.ts), so a rebuilt
    // development tree, whose version has not changed, never reuses what an older build computed.
    define: { __WFSYNC_BUILD_ID__: JSON.stringify(randomUUID()) },
  },
  output: {
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // Plain ASCII, no JSDoc: V8 then holds each chunk as a one-byte string, decoded without its slow UTF-8 path (a
    // comment's `→` near the top of the 450 KB chunk validate loads made it decode char by char: ~8M instructions
    // of every start-up). Escapes keep every string's value; source maps keep the comments for debugging.
    charset: 'ascii',
    comments: { legal: true, annotation: true, jsdoc: false },
    // For development: `wfsync --verbose` turns source maps on, so stack traces name src/ lines.
    // The maps are not packed (package.json "files").
    sourcemap: true,
  },
});
