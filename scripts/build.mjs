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
// every start-up (measured in CONTRIBUTING.md, "Benchmarks").
//
// The layout is flat, every file straight in dist/: the entries cli.js, index.js (the programmatic API, the package's
// `.` export) and emulator.js (the local service, for the sync benchmark); the CLI's entries boot.cjs and cli.cjs, the
// one chunk of all that cli.cjs loads at start (initial-HASH.cjs), and the chunks each command imports when it runs
// (`--version` loads nothing of dist/). src/version.ts reads ../package.json, which holds from src/ and dist/ alike.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

rmSync(dist, { recursive: true, force: true });

const buildId = randomUUID();
const shared = {
  cwd: root,
  platform: 'node',
  // Packages stay external: installed once by npm, updated by npm, and loaded lazily where the code says so.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  tsconfig: 'tsconfig.json',
  transform: {
    target: 'node20.19',
    // A random id per build: `validate --cache` keys its results by it (src/cache/key.ts) and the CLI its compile
    // cache (src/cli/compile-cache.ts), so a rebuilt development tree never reuses what an older build made.
    define: { __WFSYNC_BUILD_ID__: JSON.stringify(buildId) },
  },
};
const output = {
  dir: dist,
  // Plain ASCII, no JSDoc: V8 then holds each chunk as a one-byte string, decoded without its slow UTF-8 path (a
  // comment's `→` near the top of the 450 KB chunk validate loads made it decode char by char: ~8M instructions
  // of every start-up). Escapes keep every string's value; source maps keep the comments for debugging.
  charset: 'ascii',
  comments: { legal: true, annotation: true, jsdoc: false },
  // For development: `wfsync --verbose` turns source maps on, so stack traces name src/ lines.
  // The maps are not packed (package.json "files").
  sourcemap: true,
};

// The programmatic API (the package's `.` export) and the local service (for the benchmarks): ES modules.
await build({
  ...shared,
  plugins: [publicUndici()],
  input: { index: 'src/api/index.ts', emulator: 'src/emulator/index.ts' },
  output: { ...output, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});

// The CLI: CommonJS, which Node 20 can compile with a V8 code cache (vm.Script's cachedData; there is no such thing
// for ES modules before Node 22) and load without its ES module loader. boot.cjs, which bin/wfsync.cjs requires,
// loads cli.cjs and the chunks it requires through that cache (src/cli/boot.ts). Packages written as ES modules only
// (p-limit, h3) are required as such: Node >=20.19 (`engines`) requires ES modules.
//
// The packages every CLI start-up runs (the argument parser, and the YAML parser of the fast path) are bundled into
// it, so the compile cache covers them too: required from node_modules they cost a resolution and a compilation per
// file on every run (js-yaml alone is twenty files). So is p-limit (with yocto-queue, its one dependency): an ES
// module only, whose default export rolldown's CommonJS output would take from `require()` as the whole namespace.
// And the runtime helpers of the generated validators, from ajv (with fast-deep-equal): two
// small files. And undici, the HTTP client of every run that talks to a service: about a hundred files that Node's
// require would compile on every such run before its first request. Their licences go with them (dist/THIRD-PARTY-NOTICES.md).
//
// Everything cli.cjs requires as it loads (rolldown's `$initial`: the entry's static imports, all the way down) goes
// into one chunk, which every command loads whole anyway: left to rolldown, it made some twenty-five chunks of it (one
// per set of commands that share a module), and each chunk costs a validate run a file read, a checksum, a V8
// deserialisation and a module wrapper of its own (~0.2-0.4 M instructions each, ~9 M together on Node 24; CONTRIBUTING.md,
// "Benchmarks"). What a command imports with `import()` stays in chunks of its own, loaded when it runs. boot.cjs's
// own modules stay out: boot.cjs shares no chunk with the CLI (checked below).
const BOOT_ONLY = /[\\/]src[\\/]cli[\\/](boot|compile-cache)\.ts$/;
const BUNDLED = ['commander', 'js-yaml', 'p-limit', 'yocto-queue', 'ajv', 'fast-deep-equal', 'undici'];
const bundled = (id) => BUNDLED.some((name) => id === name || id.startsWith(`${name}/`));
await build({
  ...shared,
  external: (id) => shared.external(id) && !bundled(id),
  plugins: [lazyRequires()],
  input: { cli: 'src/cli/main.ts', boot: 'src/cli/boot.ts' },
  output: {
    ...output,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'], test: (id) => !BOOT_ONLY.test(id) }] },
  },
});

// boot.cjs must share no chunk with the CLI: Node's require loads it, the compile cache loads the chunks, and a chunk
// loaded by both would exist twice (two copies of every class, `instanceof` failing between them).
const bootRequires = [
  ...readFileSync(join(dist, 'boot.cjs'), 'utf8').matchAll(/require\((["'])([^"']+)\1\)/g),
].map((m) => m[2]);
const strays = bootRequires.filter((id) => !id.startsWith('node:') && id !== 'url');
if (strays.length > 0)
  throw new Error(`dist/boot.cjs must require Node's built-ins only, not ${strays.join(', ')}`);
// And the chunks name each other only as `./NAME.cjs`, the one form the compile cache's loader takes as a chunk: any
// other spelling of a dist/ file would go to Node's require and load a second copy of it.
for (const file of readdirSync(dist).filter((name) => name.endsWith('.cjs'))) {
  const code = readFileSync(join(dist, file), 'utf8');
  for (const [, , id] of code.matchAll(/\brequire\((["'])(\.[^"']*)\1\)/g)) {
    if (!/^\.\/[\w.-]+\.cjs$/.test(id))
      throw new Error(`dist/${file} requires ${id}: chunks must be required as ./NAME.cjs`);
  }
}

writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), thirdPartyNotices(BUNDLED));

/**
 * Requires that bundled packages make at load time for what wfsync never does, moved to the first use: each line is
 * replaced within itself (every other line keeps its place, so no source map is needed), and the build fails when a
 * release of the package no longer has the line, so the change is never silently lost.
 * - commander's node:child_process (net, dgram and the child-process machinery), for running a subcommand as its own
 *   executable;
 * - undici's HTTP/2 client, and with it node:http2, for a server that offers HTTP/2 when the dispatcher allows it
 *   (wfsync's never do: HTTP/1.1 only).
 */

function lazyRequires() {
  const LAZY_REQUIRES = [
    {
      file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
      line: "const childProcess = require('node:child_process');",
      lazy: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
    },
    {
      file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
      line: "const connectH2 = require('./client-h2.js')",
      lazy: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
    },
  ];
  return {
    name: 'lazy-requires',
    transform(code, id) {
      const change = LAZY_REQUIRES.find(({ file }) => file.test(id));
      if (change === undefined) return null;
      if (!code.includes(change.line))
        throw new Error(`scripts/build.mjs: ${id} no longer has "${change.line}": update LAZY_REQUIRES`);
      return { code: code.replace(change.line, change.lazy), map: null };
    },
  };
}

/**
 * The API's undici by its public name: src/remote/undici.ts takes Pool and EnvHttpProxyAgent from undici's own files,
 * which the CLI bundles (resolved once, at build time), but the API imports undici from the user's node_modules,
 * whatever release npm installed there, and a release that closes its files with an `exports` map would break every
 * API user. The package's index exports the same two classes (test/e2e/package.test.ts runs the API so).
 */
function publicUndici() {
  const file = /[\\/]src[\\/]remote[\\/]undici\.ts$/;
  let replaced = false;
  return {
    name: 'public-undici',
    load(id) {
      if (!file.test(id)) return null;
      replaced = true;
      return "export { EnvHttpProxyAgent, Pool } from 'undici';";
    },
    buildEnd() {
      if (!replaced)
        throw new Error(
          'scripts/build.mjs: the API no longer loads src/remote/undici.ts: update publicUndici',
        );
    },
  };
}

/** The name, version and licence text of each package bundled into dist/, as their licences ask. */
function thirdPartyNotices(names) {
  const sections = names.map((name) => {
    const dir = join(root, 'node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((name) => /^licen[cs]e(\.(md|txt))?$/i.test(name));
    if (file === undefined)
      throw new Error(`${name} is bundled into dist/ but has no licence file to ship with it`);
    const license = readFileSync(join(dir, file), 'utf8').trim();
    return `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n${license}\n`;
  });
  return `# Third-party notices\n\nwfsync's CLI bundle (dist/*.cjs) contains the following packages.\n\n${sections.join('\n')}`;
}
