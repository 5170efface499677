// Builds dist/ from src/: one bundle of wfsync's own code, packages left as imports. Run by `npm run build`, the test
// command, `npm start` and `npm pack`/`npm publish` (prepack). Types are checked by `npm run typecheck` (tsc), not here.
//
// `--types` writes dist/index.d.ts instead: the programmatic API's declarations (src/api/index.ts), bundled into one
// file by dts-bundle-generator, so the package ships no path of src/. It compiles the API's whole program (tens of
// seconds of CPU), so it runs when packing (prepack: `npm run build && npm run build:types`), not on every build.
// `--dist <dir>` writes the declarations elsewhere (the package test's copy of the package).
//
// Why a bundle rather than tsc's one file per module: Node loads each ES module on its own (resolve, read, compile,
// link), and a `validate` run loads ~100 of ours. One chunk per way into the code costs less at
// every start-up (measured in the README's Benchmarks).
//
// The layout is flat, every file straight in dist/: the entries cli.js, index.js (the programmatic API, the package's
// `.` export) and emulator.js (the local service, for the sync benchmark), and shared chunks that the commands other than validate load when they run (`--version` loads
// nothing of dist/). src/version.ts reads ../package.json, which holds from src/ and dist/ alike.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
try {
  require.resolve('rolldown');
} catch {
  // Installed as a dependency of another project (no devDependencies): dist/ ships prebuilt.
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const dist = distAt === -1 ? fileURLToPath(new URL('../dist', import.meta.url)) : resolve(args[distAt + 1]);

if (args.includes('--types')) {
  const { generateDtsBundle } = await import('dts-bundle-generator');
  const [text] = generateDtsBundle(
    [{ filePath: join(root, 'src/api/index.ts'), output: { noBanner: true, exportReferencedTypes: false } }],
    { preferredConfigPath: join(root, 'tsconfig.types.json') },
  );
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'index.d.ts'), text);
  process.exit(0);
}

const { build } = await import('rolldown');

// CommonJS packages every command loads at start-up (commander: the argument parser), required rather than imported:
// Node imports a CommonJS module through an ES module wrapper that first lexes its source for export names
// (cjs-module-lexer), which cost `wfsync validate` about as much again as the package itself (~30M instructions, 6%
// of `node -e 0`; test/bench/startup.bench.mjs). A virtual module stands in for the package: the same named exports,
// taken from require() in the chunk that imports it, so the package still resolves from node_modules beside dist/.
const REQUIRED_PACKAGES = ['commander'];
const VIRTUAL = '\0wfsync-require:';
const requirePackages = {
  name: 'wfsync:require-packages',
  resolveId: (id) => (REQUIRED_PACKAGES.includes(id) ? `${VIRTUAL}${id}` : undefined),
  load(id) {
    if (!id.startsWith(VIRTUAL)) return undefined;
    const name = id.slice(VIRTUAL.length);
    const names = Object.keys(require(name)).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key));
    return [
      "import { createRequire } from 'node:module';",
      `const required = createRequire(import.meta.url)(${JSON.stringify(name)});`,
      `export const { ${names.join(', ')} } = required;`,
    ].join('\n');
  },
};
rmSync(dist, { recursive: true, force: true });

await build({
  cwd: root,
  input: {
    cli: 'src/cli/main.ts',
    index: 'src/api/index.ts',
    emulator: 'src/emulator/index.ts',
  },
  platform: 'node',
  // Packages stay imports: installed once by npm, updated by npm, and loaded lazily where the code says so.
  external: (id) =>
    !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !REQUIRED_PACKAGES.includes(id),
  plugins: [requirePackages],
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
