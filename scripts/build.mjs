// Compiles src/ to dist/ with tsc. Run by `npm ci` (prepare), `npm run build` and the test command.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  // Installed as a dependency of another project (no devDependencies): dist/ ships prebuilt.
  process.exit(0);
}
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
