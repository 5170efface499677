#!/usr/bin/env node
// The wfsync command. CommonJS and kept tiny, so `wfsync --version` starts as fast as node itself (no ES module
// loader): everything else is loaded only when a command runs, through dist/boot.cjs and its compile cache.
'use strict';
const args = process.argv.slice(2);
// A reader that goes away early (`wfsync plan --help | head`) is not an error: stop writing quietly. Said to each
// stream as Node makes it, on first use: a run that writes to a pipe or a file writes without them (src/cli/stdio.ts),
// and making them would load Node's stream modules on every start-up.
for (const name of ['stdout', 'stderr']) {
  const quietOnEpipe = (stream) =>
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
    });
  const made = Object.getOwnPropertyDescriptor(process, name);
  if (typeof made?.get !== 'function' || !made.configurable) {
    quietOnEpipe(process[name]);
    continue;
  }
  let stream;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: made.enumerable,
    get: () => {
      if (stream === undefined) stream = quietOnEpipe(made.get.call(process));
      return stream;
    },
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
          // The first line: Node's "Require stack:" lists only this file.
          `wfsync: could not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n` +
            (args.includes('--verbose') && error instanceof Error && error.stack
              ? `${error.stack}\n`
              : `${whatToRun()}; --verbose shows the stack.\n`),
        );
        process.exitCode = 1;
      },
    );
}

/**
 * What to run about a start that failed: a checkout of the sources that was never built (bin/ loads dist/, which
 * `npm run build` makes from src/) is told the two commands, with the folder to run them in; an install is
 * reinstalled. Node's built-ins only, and only after a failure.
 */
function whatToRun() {
  const { existsSync } = require('node:fs');
  const { join, relative } = require('node:path');
  const root = join(__dirname, '..');
  if (!existsSync(join(root, 'scripts/build.mjs'))) return 'Reinstall wfsync';
  const where = relative(process.cwd(), root) || '.';
  const install = existsSync(join(root, 'node_modules')) ? '' : 'npm ci && ';
  const built = existsSync(join(root, 'dist/boot.cjs')) ? 'incomplete' : 'not built';
  return (
    `This checkout of wfsync is ${built} (bin/ runs dist/, which the build makes from src/): ` +
    `run "${install}npm run build"${where === '.' ? '' : ` in ${where}`}, then the command again`
  );
}
