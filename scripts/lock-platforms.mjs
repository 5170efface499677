// Keeps package-lock.json usable by `npm ci` on every platform.
//
// Biome ships its binary as per-platform optional packages. When the registry an install ran against does not serve
// some of them (a partial mirror), npm silently leaves them out of the lockfile, and `npm ci` then refuses the lock
// as "out of sync". This adds the missing entries exactly as npm writes them for a platform it skips (version, os,
// cpu, libc, optional), so `npm ci` skips them on other platforms instead of failing. Run after `npm install`
// (`npm run lock:platforms`); `--check` exits 1 when entries are missing (CI runs it).
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;
const PLATFORM = /cli-(android|darwin|linux|win32)-(arm64|x64)(-musl)?$/;

const missing = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    const key = `node_modules/${name}`;
    if (!match || packages[key]) continue;
    const added = {
      version,
      cpu: [match[2]],
      dev: entry.dev,
      license: entry.license,
      optional: true,
      os: [match[1]],
    };
    if (match[3]) added.libc = ['musl'];
    if (entry.engines) added.engines = entry.engines;
    if (added.dev === undefined) delete added.dev;
    missing.push([key, added, path]);
  }
}
if (process.argv.includes('--check')) {
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} platform packages; run "npm run lock:platforms"`,
    );
    process.exit(1);
  }
  process.exit(0);
}
for (const [key, added] of missing) packages[key] = added;
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  missing.length === 0
    ? 'package-lock.json: nothing to add'
    : `package-lock.json: added ${missing.map(([k]) => k).join(', ')}`,
);
