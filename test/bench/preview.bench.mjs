// npm run bench:preview — `wfsync preview --serve` save-to-repaint latency on a project of 300 synthetic workflows:
// from writing a definition file to holding its re-rendered steps, as the page gets them (the file written → the
// server's watcher sees it → re-checks the file → SSE `change` → GET /api/workflows and POST /api/render, as the
// page asks → the rendered workflow). Side by
// side with the ideal: a bare fs.watch in this process seeing the same kind of write (no server, no check, no
// render). Prints median and p95 of each and their ratio; the issue wants under 200 ms from save to picture.
// Prints, never asserts.
//
// Environment: BENCH_COUNT (workflows, default 300), BENCH_EDITS (edits measured, default 40). Needs a build
// (dist/): `npm run build` first.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wfsync = join(root, 'bin/wfsync.cjs');
const count = Number(process.env.BENCH_COUNT ?? 300);
const edits = Number(process.env.BENCH_EDITS ?? 40);

function makeProject(n) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-preview-'));
  mkdirSync(join(dir, 'workflows'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'workflows', `wf-${i}.yaml`), syntheticDefinition(i));
  cpSync(join(root, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

/** Edit k of file i: a description that changes every time (what a save of a real edit does to the file). */
function edited(i, k) {
  return syntheticDefinition(i).replace(
    /^description: .*$/m,
    `description: Synthetic workflow ${i}, edit ${k}.`,
  );
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function startServe(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wfsync, 'preview', '--serve', '--port', '0'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.on('exit', (code) => reject(new Error(`preview --serve exited ${code}: ${stderr}`)));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (match) resolve({ child, port: Number(match[1]) });
    });
  });
}

/** The page's SSE stream: calls onChange with each `change` event's data. */
function listen(port, onChange) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/events' }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: hello$/m.test(block)) resolve(req);
          const data = /^event: change\ndata: (.*)$/m.exec(block);
          if (data) onChange(JSON.parse(data[1]));
          end = buffer.indexOf('\n\n');
        }
      });
    });
    req.end();
  });
}

/** What the page asks on a change: the listing (GET /api/workflows), then the changed workflow (POST /api/render). */
function ask(port, path, body) {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path };
    if (body !== undefined)
      Object.assign(options, { method: 'POST', headers: { 'content-type': 'application/json' } });
    const req = request(options, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function measureServe(dir) {
  const { child, port } = await startServe(dir);
  let waiting;
  const sse = await listen(port, (change) => waiting?.(change));
  const samples = [];
  try {
    for (let k = 0; k < edits; k++) {
      const i = (k * 37) % count;
      const file = `workflows/wf-${i}.yaml`;
      const seen = new Promise((resolve) => {
        waiting = (change) => change.files.includes(file) && resolve();
      });
      const start = performance.now();
      writeFileSync(join(dir, file), edited(i, k));
      await seen;
      await ask(port, '/api/workflows');
      const answer = await ask(port, '/api/render', { file });
      samples.push(performance.now() - start);
      if (answer.workflow?.steps?.length === 0 || answer.broken) throw new Error(`${file} did not render`);
      await pause(50);
    }
  } finally {
    sse.destroy();
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
  return samples;
}

async function measureIdeal(dir) {
  const workflows = join(dir, 'workflows');
  let waiting;
  const watcher = watch(workflows, (_event, name) => waiting?.(name));
  const samples = [];
  try {
    for (let k = 0; k < edits; k++) {
      const i = (k * 37) % count;
      const name = `wf-${i}.yaml`;
      const seen = new Promise((resolve) => {
        waiting = (changed) => changed === name && resolve();
      });
      const start = performance.now();
      writeFileSync(join(workflows, name), edited(i, k + edits));
      await seen;
      samples.push(performance.now() - start);
      await pause(50);
    }
  } finally {
    watcher.close();
  }
  return samples;
}

const dir = makeProject(count);
try {
  readFileSync(wfsync);
  const serve = await measureServe(dir);
  const ideal = await measureIdeal(dir);
  const row = (label, samples) => [label, fmt(median(samples)), fmt(percentile(samples, 95))];
  console.log(`\nwfsync preview --serve: save to re-rendered step, ${count} workflows, ${edits} edits (ms)`);
  console.log(
    table([
      ['', 'median', 'p95'],
      row('preview --serve (write → SSE → render)', serve),
      row('ideal (bare fs.watch event)', ideal),
    ]),
  );
  console.log(
    `ratio (median): ${(median(serve) / median(ideal)).toFixed(1)}×; goal: under 200 ms from save to picture ` +
      `(median ${fmt(median(serve))} ms, p95 ${fmt(percentile(serve, 95))} ms)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
