import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { BIN, ROOT } from './helpers.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'reports/preview-screenshots');

/** Why the browser tests cannot run here, or undefined. Under CI a missing Chromium fails instead. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing under CI: install the chromium package`);
  return `Chromium is not installed at ${CHROMIUM} (Debian's chromium package)`;
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

export interface Served {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** `wfsync preview --serve --port 0` in `cwd`, as a user starts it; resolves once it says where it listens. */
export function startServe(cwd: string, extra: string[] = []): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'preview', '--serve', '--port', '0', ...extra], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no URL from preview --serve:\n${stderr}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`preview --serve exited ${code}:\n${stderr}`)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(stderr)?.[0];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        child,
        stderr: () => stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** A loopback listener that records every request: what a template's script or image would call. */
export async function startWitness(): Promise<{ port: number; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One workflow whose chat step renders `subscriber.nickname` empty with the sample data (render-empty, a warning). */
function nicknameWorkflow(identifier: string, comment = ''): string {
  return `name: ${identifier}
steps:
  - name: chat
    template:
      type: chat
${comment}      content: "Hi {{subscriber.nickname}}: {{orderId}}"
triggers:
  - type: event
    identifier: ${identifier}
    variables:
      - { name: orderId, type: String }
`;
}

/**
 * The same render-empty finding four times: as it is (plain), silenced by a comment, turned off by `overrides:`
 * (exp/) and made an error by a later one (strict/). What preview shows of each must be what validate reports.
 */
export const RULE_CONTROL_PROJECT = {
  'wfsync.config.yaml':
    'overrides:\n  - files: workflows/exp/**\n    rules: { render-empty: "off" }\n' +
    '  - files: workflows/strict/**\n    rules: { render-empty: error }\n',
  'workflows/plain.yaml': nicknameWorkflow('plain'),
  'workflows/silenced.yaml': nicknameWorkflow(
    'silenced',
    '      # wfsync-disable-next-line render-empty -- nicknames are optional\n',
  ),
  'workflows/exp/x.yaml': nicknameWorkflow('x'),
  'workflows/strict/s.yaml': nicknameWorkflow('s'),
};

/** What RULE_CONTROL_PROJECT's files show: validate's render findings, by file. */
export const RULE_CONTROL_FINDINGS = {
  'workflows/exp/x.yaml': [],
  'workflows/plain.yaml': ['render-empty:warning:6'],
  'workflows/silenced.yaml': [],
  'workflows/strict/s.yaml': ['render-empty:error:6'],
};
