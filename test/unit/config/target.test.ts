import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfigFile, readProject } from '../../../src/config/project.js';
import { readApiKey, resolveTarget } from '../../../src/config/target.js';
import { ConfigError, UsageError, WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const CONFIG = `workflowsDir: defs
defaultTarget: staging
rules:
  identifier-name-mismatch: error
targets:
  staging:
    baseUrl: https://staging.example.com
    apiKeyEnv: STAGING_KEY
    notificationGroupId: 6650f0c0ffee00000000a000
    notificationGroups: { transactional: 6650f0c0ffee00000000a001, marketing: 6650f0c0ffee00000000a002 }
    concurrency: 6
    rateLimit: 12
    state: state/staging.json
  production:
    baseUrl: https://api.example.com
    notificationGroups: { transactional: 6650f0c0ffee00000000b001 }
`;

const tempProject = useTempProjects('wfsync-config-');

function project(config?: string): { dir: string; sub: string } {
  const dir = tempProject(config === undefined ? {} : { 'wfsync.config.yaml': config });
  const sub = join(dir, 'a', 'b');
  mkdirSync(sub, { recursive: true });
  return { dir, sub };
}

describe('config discovery', () => {
  it('walks up from the working directory to the first wfsync.config.yaml', () => {
    const { dir, sub } = project(CONFIG);
    expect(findConfigFile(sub)).toBe(join(dir, 'wfsync.config.yaml'));
    expect(findConfigFile(project().sub)).toBeUndefined();
  });

  it('resolves workflowsDir against the config file, and reads rule severities and known groups', () => {
    const { dir, sub } = project(CONFIG);
    const p = readProject({}, sub);
    expect(p.workflowsDir).toBe(join(dir, 'defs'));
    expect(p.severities).toEqual({ 'identifier-name-mismatch': 'error' });
    // Only the groups every target defines can be used offline without failing on some target.
    expect(p.notificationGroups).toEqual(['transactional']);
  });

  it('an invalid config is a ConfigError (exit 3) carrying positioned diagnostics', () => {
    const { sub } = project('targets:\n  staging:\n    baseUrl: https://x.example.com\n    apiKey: s3cret\n');
    const error = (() => {
      try {
        readProject({}, sub);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const diagnostics = (error as ConfigError).diagnostics;
    expect(diagnostics[0]).toMatchObject({
      file: expect.stringMatching(/wfsync\.config\.yaml$/),
      line: 4,
      column: 5,
    });
    expect(JSON.stringify(diagnostics)).not.toContain('s3cret');
  });

  it('--config pointing nowhere is a usage error', () => {
    expect(() => readProject({ config: 'missing.yaml' }, project().dir)).toThrow(UsageError);
  });
});

describe('resolveTarget: flags > environment > config > defaults', () => {
  it('uses defaultTarget from config with its options', () => {
    const { dir } = project(CONFIG);
    const t = resolveTarget(readProject({}, dir), {}, {});
    expect(t).toMatchObject({
      name: 'staging',
      kind: 'remote',
      baseUrl: 'https://staging.example.com',
      apiKeyEnv: 'STAGING_KEY',
      notificationGroupId: '6650f0c0ffee00000000a000',
      concurrency: 6,
      rateLimit: 12,
      statePath: join(dir, 'state/staging.json'),
    });
    expect(t.baseUrlFrom).toBeUndefined();
  });

  it('lets --target, WFSYNC_TARGET, --base-url, WFSYNC_BASE_URL, --state and --concurrency override config', () => {
    const { dir } = project(CONFIG);
    const p = readProject({}, dir);
    expect(resolveTarget(p, {}, { WFSYNC_TARGET: 'production' }).name).toBe('production');
    expect(resolveTarget(p, { target: 'staging' }, { WFSYNC_TARGET: 'production' }).name).toBe('staging');
    const env = resolveTarget(p, {}, { WFSYNC_BASE_URL: 'https://env.example.com' });
    expect(env).toMatchObject({ baseUrl: 'https://env.example.com', baseUrlFrom: 'WFSYNC_BASE_URL' });
    const flag = resolveTarget(
      p,
      { baseUrl: 'https://flag.example.com' },
      { WFSYNC_BASE_URL: 'https://env.example.com' },
    );
    expect(flag).toMatchObject({ baseUrl: 'https://flag.example.com', baseUrlFrom: '--base-url' });
    const flags = resolveTarget(p, { state: 'x.json', concurrency: 2 }, {});
    expect(flags).toMatchObject({ statePath: join(dir, 'x.json'), concurrency: 2 });
    expect(
      resolveTarget(p, {}, { WFSYNC_NOTIFICATION_GROUP_ID: '6650f0c0ffee00000000c000' }).notificationGroupId,
    ).toBe('6650f0c0ffee00000000c000');
  });

  it('defaults to the built-in local target when nothing is configured', () => {
    const { dir } = project();
    const t = resolveTarget(readProject({}, dir), {}, {});
    expect(t).toMatchObject({
      name: 'local',
      kind: 'local',
      statePath: join(dir, '.wfsync/state/local.json'),
      dataFile: join(dir, '.wfsync/local-service.json'),
      concurrency: 8,
    });
    expect(t.baseUrl).toBeUndefined();
  });

  it('an ad-hoc target needs a base URL; the local target refuses one; an unknown target lists the known ones', () => {
    const { dir } = project(CONFIG);
    const p = readProject({}, dir);
    expect(resolveTarget(p, { target: 'dev' }, { WFSYNC_BASE_URL: 'http://127.0.0.1:4010' })).toMatchObject({
      name: 'dev',
      statePath: join(dir, '.wfsync/state/dev.json'),
    });
    expect(() => resolveTarget(p, { target: 'dev' }, {})).toThrow(
      /unknown target "dev" \(configured: local, staging, production\)/,
    );
    expect(() => resolveTarget(p, { target: 'local', baseUrl: 'https://x.example.com' }, {})).toThrow(
      UsageError,
    );
  });
});

describe('readApiKey', () => {
  it("reads the target's variable, falls back to WFSYNC_API_KEY, and names the variable (never a value) when missing", () => {
    const { dir } = project(CONFIG);
    const t = resolveTarget(readProject({}, dir), {}, {});
    expect(readApiKey(t, { STAGING_KEY: ' k1 ', WFSYNC_API_KEY: 'k2' })).toBe('k1');
    expect(readApiKey(t, { WFSYNC_API_KEY: 'k2' })).toBe('k2');
    try {
      readApiKey(t, { OTHER: 'k3' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WfsyncError);
      expect((error as WfsyncError).exitCode).toBe(ExitCode.Auth);
      expect((error as WfsyncError).message).toBe(
        'no API key for target "staging": set the environment variable STAGING_KEY (or WFSYNC_API_KEY)',
      );
    }
  });
});

describe('what sync may write (allow)', () => {
  const allowConfig = `targets:
  development:
    baseUrl: https://dev.example.com
    allow: [create, update]
  staging:
    baseUrl: https://staging.example.com
  strict:
    baseUrl: https://strict.example.com
    allow: [update]
`;
  const allowed = (flags: Parameters<typeof resolveTarget>[1]) => {
    const { sub } = project(allowConfig);
    return [...resolveTarget(readProject(flags, sub), flags, {}).allow];
  };

  it('is create only unless the target says more; the embedded local sandbox allows all three', () => {
    expect(allowed({ target: 'staging' })).toEqual(['create']);
    expect(allowed({ target: 'development' })).toEqual(['create', 'update']);
    expect(allowed({ target: 'local' })).toEqual(['create', 'update', 'delete']);
  });

  it('--allow adds to the list for one run, in one order, and never takes any away', () => {
    expect(allowed({ target: 'staging', allow: ['delete'] })).toEqual(['create', 'delete']);
    expect(allowed({ target: 'development', allow: ['delete', 'update'] })).toEqual([
      'create',
      'update',
      'delete',
    ]);
  });

  it('a list without create is a config error naming the target; an unknown --allow value a usage error', () => {
    expect(() => allowed({ target: 'strict' })).toThrow(ConfigError);
    expect(() => allowed({ target: 'strict' })).toThrow(/targets\.strict\.allow must include create/);
    expect(() => allowed({ target: 'staging', allow: ['destroy' as never] })).toThrow(UsageError);
  });

  it('the config schema refuses an unknown write', () => {
    const { sub } = project(
      'targets:\n  dev:\n    baseUrl: https://dev.example.com\n    allow: [create, destroy]\n',
    );
    expect(() => readProject({}, sub)).toThrow(ConfigError);
  });
});

describe('targets.<name>.promoteFrom', () => {
  const PROMOTED = `targets:
  development:
    baseUrl: https://api.example.com
    apiKeyEnv: DEV_KEY
    notificationGroupId: 6650f0c0ffee00000000a000
  production:
    baseUrl: https://api.example.com
    apiKeyEnv: PROD_KEY
    promoteFrom: development
`;
  const resolved = (config: string, flags = {}) =>
    resolveTarget(readProject({}, project(config).sub), flags, {});

  it('resolves the Development target as --target would, with its own key, state and groups', () => {
    const { dir, sub } = project(PROMOTED);
    const target = resolveTarget(readProject({}, sub), { target: 'production', state: 'p.json' }, {});
    expect(target.apiKeyEnv).toBe('PROD_KEY');
    expect(target.promoteFrom).toMatchObject({
      name: 'development',
      apiKeyEnv: 'DEV_KEY',
      notificationGroupId: '6650f0c0ffee00000000a000',
      statePath: join(dir, '.wfsync/state/development.json'),
    });
    expect(target.promoteFrom?.promoteFrom).toBeUndefined();
    expect(resolveTarget(readProject({}, sub), { target: 'development' }, {}).promoteFrom).toBeUndefined();
  });

  it('a target it does not name, itself, or a promoted one: a config error naming the setting', () => {
    const missing = PROMOTED.replace('promoteFrom: development', 'promoteFrom: staging');
    expect(() => resolved(missing, { target: 'production' })).toThrow(
      'targets.production.promoteFrom names "staging", which is not a target of wfsync.config.yaml (configured: development)',
    );
    const self = PROMOTED.replace('promoteFrom: development', 'promoteFrom: production');
    expect(() => resolved(self, { target: 'production' })).toThrow(ConfigError);
    const chained = `${PROMOTED}  eu:\n    baseUrl: https://api.example.com\n    promoteFrom: production\n`;
    expect(() => resolved(chained, { target: 'eu' })).toThrow(
      'targets.eu.promoteFrom names "production", which is itself promoted (targets.production.promoteFrom)',
    );
  });
});
