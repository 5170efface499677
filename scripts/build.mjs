// Compiles src/ to dist/ with tsc. Run by `npm ci` (prepare), `npm run build` and the test command.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
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
if (result.status === 0) {
  // A random id per build: `validate --cache` keys its results by it (src/cache/key.ts), so a rebuilt development
  // tree, whose version has not changed, never reuses what an older build computed.
  writeFileSync(
    new URL('../dist/build-info.json', import.meta.url),
    `${JSON.stringify({ id: randomUUID() })}\n`,
  );
}
process.exit(result.status ?? 1);
