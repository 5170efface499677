import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunContext } from '../../../src/api/run-context.js';
import { readProject } from '../../../src/config/project.js';
import { resolveTarget, type TargetOptions } from '../../../src/config/target.js';
import { useTempProjects } from '../../helpers/temp-project.js';

/** What a run's suggested commands repeat, from a real config file in a temp project. */

const tempProject = useTempProjects('wfsync-run-context-');

const CONFIG = [
  'defaultTarget: production',
  'targets:',
  '  production: { baseUrl: "https://api.example.com" }',
  '  staging: { baseUrl: "https://staging.example.com" }',
  '',
].join('\n');

function contextFor(flags: TargetOptions, env: NodeJS.ProcessEnv = {}, base?: string) {
  const cwd = tempProject({ 'wfsync.config.yaml': CONFIG, 'other config.yaml': CONFIG });
  const resolved = { ...flags, ...(flags.config ? { config: join(cwd, flags.config) } : {}) };
  const project = readProject(resolved, cwd);
  const target = resolveTarget(project, resolved, env);
  return buildRunContext({ project, target, options: resolved, ...(base ? { base } : {}) });
}

describe('buildRunContext', () => {
  it('the default target, found config: nothing to repeat', () => {
    expect(contextFor({})).toEqual({ target: 'production', targetIsDefault: true });
    expect(contextFor({ target: 'production' })).toEqual({ target: 'production', targetIsDefault: true });
  });

  it('another target, by flag or WFSYNC_TARGET', () => {
    expect(contextFor({ target: 'staging' })).toEqual({ target: 'staging', targetIsDefault: false });
    expect(contextFor({}, { WFSYNC_TARGET: 'staging' })).toEqual({
      target: 'staging',
      targetIsDefault: false,
    });
  });

  it('a config file discovery would not find, the state file and the base, relative to cwd', () => {
    expect(contextFor({ config: 'other config.yaml', state: 's/x.json' }, {}, 'origin/main')).toEqual({
      target: 'production',
      targetIsDefault: true,
      configPath: 'other config.yaml',
      statePath: 's/x.json',
      base: 'origin/main',
    });
    expect(contextFor({ target: 'staging', baseUrl: 'https://other.example.com' }).baseUrl).toBe(
      'https://other.example.com',
    );
    expect(contextFor({}, { WFSYNC_BASE_URL: 'https://env.example.com' }).baseUrl).toBe(
      'https://env.example.com',
    );
    // The file discovery finds anyway is not repeated.
    expect(contextFor({ config: 'wfsync.config.yaml' }).configPath).toBeUndefined();
  });
});
