#!/usr/bin/env node
// The wfsync command. CommonJS and kept tiny, so `wfsync --version` starts as fast as node itself (no ES module
// loader): everything else is loaded only when a command runs, through dist/boot.cjs and its compile cache.
'use strict';
const args = process.argv.slice(2);
// A reader that goes away early (`wfsync plan --help | head`) is not an error: stop writing quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(
    require('node:fs').readFileSync(require('node:path').join(__dirname, '../package.json'), 'utf8'),
  );
  // The same line as src/version.ts VERSION_LINE.
  process.stdout.write(`${pkg.version} (node ${process.version}; ${process.platform} ${process.arch})\n`);
} else {
  // --no-color / --color decide for the libraries that read the environment themselves (listr2) too; main() reads
  // the same flags for its own output.
  if (args.includes('--no-color')) {
    process.env.NO_COLOR = '1';
    delete process.env.FORCE_COLOR;
  } else if (args.includes('--color')) {
    process.env.FORCE_COLOR = '1';
    delete process.env.NO_COLOR;
  }
  // dist/ is a bundle (scripts/build.mjs): with --verbose, stack traces name the src/ lines its source maps point to
  // (where the maps are: a development tree; the npm package leaves them out).
  if (args.includes('--verbose')) process.setSourceMapsEnabled(true);
  // The one exit point: main() returns the exit code and never calls process.exit itself.
  // main() reports every error itself; what reaches this catch is a broken install (a chunk missing, dist/ unreadable).
  Promise.resolve()
    .then(() => require('../dist/boot.cjs').runCli(args))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        process.stderr.write(
          `wfsync: could not start: ${error instanceof Error ? error.message : String(error)}\n` +
            (args.includes('--verbose') && error instanceof Error && error.stack
              ? `${error.stack}\n`
              : 'Reinstall wfsync (or run npm run build in a development tree); --verbose shows the stack.\n'),
        );
        process.exitCode = 1;
      },
    );
}
