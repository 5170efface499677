#!/usr/bin/env node
// npm run mutation [-- batch…] [--report-only]: runs Stryker once per batch (scripts/mutation-batches.mjs), then
// prints every mutated file's score and checks each target. Exit 0 when every target is met, 1 when one is not,
// 2 when Stryker itself failed. --report-only skips the runs and checks the reports already in reports/mutation/.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { MUTATION_BATCHES } from './mutation-batches.mjs';
import { checkTargets, score, tally } from './mutation-score.mjs';

const args = process.argv.slice(2);
const reportOnly = args.includes('--report-only');
const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !MUTATION_BATCHES.some((b) => b.name === n));
if (unknown.length > 0) {
  console.error(
    `unknown batch ${unknown.join(', ')}; batches: ${MUTATION_BATCHES.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}
const batches =
  names.length === 0 ? MUTATION_BATCHES : MUTATION_BATCHES.filter((b) => names.includes(b.name));

let broken = false;
if (!reportOnly) {
  for (const batch of batches) {
    console.log(`\n== mutation batch ${batch.name}: ${batch.mutate.join(' ')}`);
    const run = spawnSync('npx', ['stryker', 'run'], {
      stdio: 'inherit',
      env: { ...process.env, WFSYNC_MUTATION_BATCH: batch.name },
    });
    if (run.status !== 0) {
      console.error(`stryker failed on batch ${batch.name} (exit ${run.status ?? run.signal})`);
      broken = true;
    }
  }
}

const pct = (value) => `${value.toFixed(1)}%`.padStart(7);
let missed = false;
for (const batch of batches) {
  const file = `reports/mutation/${batch.name}/mutation.json`;
  if (!existsSync(file)) {
    console.error(`no report for batch ${batch.name} (${file})`);
    broken = true;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  console.log(
    `\n${batch.name}: file, score, survived, not covered (report: reports/mutation/${batch.name}/)`,
  );
  const files = Object.entries(report.files).map(([path, f]) => [relative(process.cwd(), path), f.mutants]);
  for (const [path, mutants] of files.sort(([a], [b]) => a.localeCompare(b))) {
    const t = tally(mutants);
    const counts = `${String(t.survived).padStart(4)}  ${String(t.noCoverage).padStart(4)}`;
    console.log(`  ${path.padEnd(44)} ${pct(score(t))}  ${counts}`);
  }
  for (const target of checkTargets(report, batch.targets)) {
    if (!target.met) missed = true;
    const verdict = target.met ? 'met    ' : 'MISSED ';
    const reached = target.files === 0 ? 'no file of the report matches' : pct(target.reached);
    console.log(`  ${verdict} ${target.glob.padEnd(36)} ${reached} (target ${target.score}%)`);
  }
}
process.exit(broken ? 2 : missed ? 1 : 0);
