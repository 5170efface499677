import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfig } from '../../../src/config/read.js';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import { buildConfigFile, CI_API_KEY_ENV, CI_TARGET } from '../../../src/scaffold/config-file.js';
import { buildExampleWorkflow, EXAMPLE_IDENTIFIER } from '../../../src/scaffold/example-workflow.js';
import { modeline } from '../../../src/scaffold/schema-ref.js';
import { useTempProjects } from '../../helpers/temp-project.js';
import { describeAll, validateText } from './helpers.js';

const tempProject = useTempProjects('wfsync-scaffold-');

/** The config as `wfsync` itself reads it: the real reader, schema and config rules (throws when invalid). */
function readConfigText(text: string) {
  return readConfig('wfsync.config.yaml', tempProject({ 'wfsync.config.yaml': text })).config;
}

describe('the example definition', () => {
  const text = buildExampleWorkflow(modeline('../node_modules/wfsync/schemas/workflow.schema.json'));

  it('validates with no finding at all', () => {
    expect(describeAll(validateText(text, `workflows/${EXAMPLE_IDENTIFIER}.yaml`))).toEqual([]);
  });

  it('declares the trigger the service derives', () => {
    const definition = parse(text) as {
      name: string;
      steps: unknown;
      triggers: Array<{ identifier: string; variables: unknown }>;
    };
    const derived = deriveTrigger(definition, { extraction: 'server' });
    expect(definition.triggers[0]?.identifier).toBe(derived.identifierV1);
    expect(definition.triggers[0]?.identifier).toBe(derived.identifierV2);
    expect(definition.triggers[0]?.variables).toEqual(
      derived.variables.map(({ name, type }) => ({ name, type })),
    );
  });

  it('starts with the modeline it was given, or with its note when given none', () => {
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../node_modules/wfsync/schemas/workflow.schema.json',
    );
    expect(buildExampleWorkflow(undefined)).toBe(text.slice(text.indexOf('\n') + 1));
  });
});

describe('the config file', () => {
  const text = buildConfigFile({
    workflowsDir: 'workflows',
    configSchemaRef: './schemas/config.schema.json',
    ci: 'github',
  });

  it('is a valid config: the workflows directory and the local target', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./schemas/config.schema.json');
    expect(readConfigText(text)).toEqual({ workflowsDir: 'workflows', defaultTarget: 'local' });
  });

  it('its commented target is valid once uncommented, and names the variable CI sets', () => {
    const lines = text.split('\n');
    const from = lines.indexOf('# targets:');
    expect(from).toBeGreaterThan(0);
    const uncommented = [
      ...lines.slice(0, from),
      ...lines.slice(from).map((line) => line.replace(/^# ?/, '')),
    ];
    const config = readConfigText(uncommented.join('\n'));
    expect(config.targets?.[CI_TARGET]).toEqual({
      baseUrl: 'https://api.example.com',
      apiKeyEnv: CI_API_KEY_ENV,
      notificationGroupId: '64f0c0ffee0000000000abcd',
      notificationGroups: { transactional: '64f1c0ffee0000000000abcd' },
      allow: ['create', 'update'],
    });
  });

  it("its real target is the Development environment's: the only key that may create; promotion is the dashboard's", () => {
    expect([CI_TARGET, CI_API_KEY_ENV]).toEqual(['development', 'WFSYNC_DEVELOPMENT_API_KEY']);
    expect(text).toContain(
      "# Its key must be the Development environment's: only a Development key may create workflows. Production\n" +
        '# takes them from Development when their changes are promoted: the production target below.\n',
    );
    expect(text).toContain('#   development:\n');
    expect(text).toContain('#     apiKeyEnv: WFSYNC_DEVELOPMENT_API_KEY\n');
  });

  it('a workflows directory YAML would misread is quoted', () => {
    const config = readConfigText(
      buildConfigFile({ workflowsDir: 'a: b #c', configSchemaRef: 'x', ci: 'github' }),
    );
    expect(config.workflowsDir).toBe('a: b #c');
  });

  it('no schema to name: no modeline, the comment first', () => {
    const bare = buildConfigFile({ workflowsDir: 'workflows', configSchemaRef: undefined, ci: 'github' });
    expect(bare.split('\n')[0]).toBe(
      '# wfsync: workflow definitions kept as code. `wfsync help` lists the commands.',
    );
    expect(bare).toBe(text.slice(text.indexOf('\n') + 1));
  });

  it('the commented target says which CI uses it and where its key is, for the provider init wrote', () => {
    const file = (ci: 'github' | 'gitlab' | 'none') =>
      buildConfigFile({ workflowsDir: 'workflows', configSchemaRef: undefined, ci });
    expect(file('github')).toContain(
      '# The CI recipes in .github/workflows use this target, with the key in the repository secret\n' +
        '# WFSYNC_DEVELOPMENT_API_KEY.\n# targets:\n',
    );
    expect(file('gitlab')).toContain(
      '# The GitLab jobs in .gitlab/wfsync.gitlab-ci.yml use this target, with the key in the masked CI/CD\n' +
        '# variable WFSYNC_DEVELOPMENT_API_KEY.\n# targets:\n',
    );
    expect(file('none')).toContain(
      '# The CI jobs `wfsync init --ci github` (or `--ci gitlab`) writes use this target, with the key in the\n' +
        '# repository secret (or masked CI/CD variable) WFSYNC_DEVELOPMENT_API_KEY.\n# targets:\n',
    );
    for (const ci of ['gitlab', 'none'] as const)
      expect(buildConfigFile({ workflowsDir: 'w', configSchemaRef: undefined, ci })).not.toContain(
        '.github/workflows',
      );
  });
});
