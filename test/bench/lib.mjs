// Shared benchmark helpers: spawn a command, measure wall time and peak RSS (GNU time when present).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * `command args` wrapped in GNU time when present, with a reader of its peak RSS in MB and its CPU time (user +
 * system, ms) to call once the command has ended (both undefined without GNU time): what measure() and
 * measureAsync() (measure-async.mjs) share. CPU time is the steadier figure on a shared machine: another tenant's
 * load stretches wall time far more than the work a process does.
 */
export function withPeakRss(command, args) {
  if (!GNU_TIME) return { cmd: command, argv: args, usage: () => ({ rssMb: undefined, cpuMs: undefined }) };
  const file = join(tmpdir(), `wfsync-bench-rss-${process.pid}-${Math.random().toString(16).slice(2)}`);
  return {
    cmd: GNU_TIME,
    argv: ['-f', '%M %U %S', '-o', file, command, ...args],
    usage() {
      if (!existsSync(file)) return { rssMb: undefined, cpuMs: undefined };
      // GNU time prints "Command exited with non-zero status N" before the numbers when the command fails.
      const [kb, user, system] = readFileSync(file, 'utf8').trim().split('\n').pop().split(' ').map(Number);
      rmSync(file, { force: true });
      return { rssMb: kb / 1024, cpuMs: (user + system) * 1000 };
    },
  };
}

/** Run a command once; returns {ms, rssMb, cpuMs, status, stdout, stderr}. */
export function measure(command, args, options = {}) {
  const { cmd, argv, usage } = withPeakRss(command, args);
  const start = process.hrtime.bigint();
  const result = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, ...usage(), status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Best (minimum) of n rounds for each of several commands, run in turns (a, b, c, a, b, c…): the least disturbed
 * by other load on a shared machine. One result per command; peak RSS is the highest seen.
 */
export function bestInterleaved(n, fns) {
  const bests = fns.map(() => undefined);
  for (let i = 0; i < n; i++) {
    fns.forEach((fn, k) => {
      const run = fn();
      const prev = bests[k];
      if (!prev || run.ms < prev.ms) bests[k] = { ...run, rssMb: Math.max(run.rssMb ?? 0, prev?.rssMb ?? 0) };
      else prev.rssMb = Math.max(prev.rssMb ?? 0, run.rssMb ?? 0);
    });
  }
  return bests;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function fmt(n, digits = 0) {
  return n === undefined ? 'n/a' : n.toFixed(digits);
}

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}
