import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsCredential } from '../../src/credentials.js';
import { readAllFiles } from '../helpers/temp-project.js';
import { type RunResult, runCli } from './helpers.js';
import { startTarget, type Target } from './plan-sync-target.js';

/**
 * A credential pasted into wfsync.config.yaml or a definition, under a key that does not say it is one, never leaves
 * wfsync: not in a code frame, not in a message quoting the value, in no format of validate, plan or sync, and in
 * none of the files they write (--out, --output, --codequality, --previews). Neither the credential nor its last 8
 * characters (the part a masked display would typically leave).
 */

/** The formats each command offers (its --help); a new one must be added here. */
const FORMATS = {
  validate: ['human', 'json', 'github', 'junit', 'sarif', 'codeclimate'],
  plan: ['human', 'json', 'markdown', 'github', 'codeclimate'],
  sync: ['human', 'json', 'markdown', 'github'],
} as const;

interface Credentials {
  /** The service's key shape: 32 hex digits, as `ApiKey <key>`. */
  serviceKey: string;
  /** A JWT, as `Bearer <token>`. */
  jwt: string;
  /** A bare random token (base64url). */
  token: string;
}

function base64url(bytes: Buffer | string): string {
  return Buffer.from(bytes).toString('base64url');
}

function makeCredentials(): Credentials {
  let token = '';
  // A random key of this length looks random (letters, digits and cases mixed) but for a chance in a thousand, when
  // it is no credential-looking value: draw again then.
  while (!holdsCredential(token)) token = base64url(randomBytes(40));
  const jwt = [
    base64url('{"alg":"HS256","typ":"JWT"}'),
    base64url(`{"sub":"${randomBytes(6).toString('hex')}"}`),
    base64url(randomBytes(32)),
  ].join('.');
  return { serviceKey: randomBytes(16).toString('hex'), jwt, token };
}

interface Scenario {
  name: string;
  /** Exit status of `validate`. */
  validateStatus: number;
  plant(target: Target, c: Credentials): void;
}

function edit(target: Target, file: string, change: (text: string) => string): void {
  const path = join(target.cwd, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

const SCENARIOS: Scenario[] = [
  {
    name: 'the config: a headers map and another unknown key',
    validateStatus: 3,
    plant: (target, c) =>
      edit(
        target,
        'wfsync.config.yaml',
        (text) =>
          `${text}    headers: { Authorization: "ApiKey ${c.serviceKey}", X-Token: ${c.token} }\n` +
          `    auth: Bearer ${c.jwt}\n`,
      ),
  },
  {
    name: 'a definition: unknown keys',
    validateStatus: 3,
    plant: (target, c) =>
      edit(
        target,
        'workflows/order-shipped.yaml',
        (text) =>
          `${text.replace('      senderName:', `      auth: Bearer ${c.jwt}\n      senderName:`)}` +
          `headers: { Authorization: "ApiKey ${c.serviceKey}", X-Token: ${c.token} }\n`,
      ),
  },
  {
    name: 'a definition: values of the wrong kind, quoted in messages',
    validateStatus: 3,
    plant: (target, c) =>
      edit(target, 'workflows/order-shipped.yaml', (text) =>
        text
          .replace('active: true', `active: "ApiKey ${c.serviceKey}"`)
          .replace('type: in_app', `type: "Bearer ${c.jwt}"`)
          .replace('type: redirect', `type: ${c.token}`),
      ),
  },
  {
    // Values the schema accepts: credential-in-definition stops every command before a plan or a body is shown.
    name: 'a definition: values that fit the schema (a description, a message, a tag)',
    validateStatus: 3,
    plant: (target, c) =>
      edit(target, 'workflows/order-shipped.yaml', (text) =>
        text
          .replace('description: Tells', `description: Call with ApiKey ${c.serviceKey}. Tells`)
          .replace('content: Order {{orderNumber}}', `content: Bearer ${c.jwt} Order {{orderNumber}}`)
          .replace('tags: [orders, transactional]', `tags: [orders, transactional, ${c.token}]`),
      ),
  },
];

function expectNoCredential(where: string, text: string, c: Credentials): void {
  for (const credential of Object.values(c)) {
    expect(text.includes(credential), `${where} holds a credential`).toBe(false);
    expect(text.includes(credential.slice(-8)), `${where} holds a credential's last 8 characters`).toBe(
      false,
    );
  }
}

describe('a credential in a project file never leaves wfsync', () => {
  it.each(SCENARIOS)('$name', { timeout: 240_000 }, async (scenario) => {
    const target = await startTarget();
    const c = makeCredentials();
    scenario.plant(target, c);
    const planted = readAllFiles(target.cwd).map(([path]) => path);
    const runs: Array<[string, RunResult]> = [];
    const validate = (args: string[]) => runCli(args, { cwd: target.cwd });
    for (const format of FORMATS.validate) {
      const args = ['validate', '--format', format, '--codequality', `out/validate-cq.${format}`];
      runs.push([args.join(' '), await validate(args)]);
      // --output leaves stdout empty, which the JSON contract of the e2e runs refuses: json is read on stdout above.
      if (format === 'json') continue;
      const toFile = ['validate', '--format', format, '--output', `out/validate.${format}`];
      runs.push([toFile.join(' '), await validate(toFile)]);
    }
    for (const format of FORMATS.plan) {
      const args = [
        'plan',
        '--format',
        format,
        '--out',
        `out/plan.${format}.json`,
        '--previews',
        `out/p-${format}`,
      ];
      runs.push([args.join(' '), await target.run([...args, '--codequality', `out/plan-cq.${format}`])]);
    }
    for (const format of FORMATS.sync) {
      const args = ['sync', '--format', format, '--out', `out/sync.${format}.json`];
      runs.push([args.join(' '), await target.run(args)]);
    }
    expect(runs[0]![1].status, runs[0]![1].stderr).toBe(scenario.validateStatus);
    // Invalid project files stop plan and sync before any request, so nothing reached the service either.
    for (const [command, result] of runs) {
      expect([0, 2, 3], `${command}: ${result.stderr}`).toContain(result.status);
      expectNoCredential(`stdout of ${command}`, result.stdout, c);
      expectNoCredential(`stderr of ${command}`, result.stderr, c);
    }
    expect(existsSync(join(target.cwd, 'out'))).toBe(true);
    for (const [path, text] of readAllFiles(target.cwd)) {
      if (!planted.includes(path)) expectNoCredential(path, text, c);
    }
  });
});
