import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelineInput } from '../../../src/scaffold/files.js';
import {
  configSchemaOf,
  decideModeline,
  globsCover,
  isWorkflowSchema,
  modeline,
  modelineOf,
  normalizeSchemaPath,
  PACKAGE_SCHEMA_PATH,
  REPO_SCHEMA_PATH,
  withModeline,
} from '../../../src/scaffold/schema-ref.js';
import { type ProjectFiles, tempProject } from '../../helpers/temp-project.js';

describe('schema references', () => {
  it('the config schema sits beside the workflow schema, a URL too', () => {
    expect(configSchemaOf(PACKAGE_SCHEMA_PATH)).toBe('node_modules/wfsync/schemas/config.schema.json');
    expect(configSchemaOf(REPO_SCHEMA_PATH)).toBe('./schemas/config.schema.json');
    const url = 'https://example.com/wfsync/1.0/workflow.schema.json';
    expect(configSchemaOf(url)).toBe('https://example.com/wfsync/1.0/config.schema.json');
  });

  it('--schema-path as typed: separators and dots normalised, a leading ./ kept', () => {
    expect(normalizeSchemaPath('vendor\\wfsync\\workflow.schema.json')).toBe(
      'vendor/wfsync/workflow.schema.json',
    );
    expect(normalizeSchemaPath('./schemas//workflow.schema.json')).toBe('./schemas/workflow.schema.json');
    expect(normalizeSchemaPath('a/../schemas/workflow.schema.json')).toBe('schemas/workflow.schema.json');
    expect(configSchemaOf('workflow.schema.json')).toBe('./config.schema.json');
  });

  it('the modeline YAML editors read', () => {
    expect(modeline('../schemas/workflow.schema.json')).toBe(
      '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    );
  });
});

describe('the modeline a written file gets (decideModeline over what is on disk)', () => {
  const SCHEMA = '{"$id":"https://wfsync.dev/schemas/workflow.schema.json"}';
  const project = (files: ProjectFiles) => tempProject(files, 'wfsync-modeline-');
  const decide = (root: string, file: string) => decideModeline(readModelineInput(root, join(root, file)));

  it('the repository’s own schemas/: relative to the file’s folder, also ahead of an installed package', () => {
    const root = project({
      'schemas/workflow.schema.json': SCHEMA,
      'node_modules/wfsync/schemas/workflow.schema.json': SCHEMA,
    });
    expect(decide(root, 'workflows/billing/a.yaml')).toEqual({
      source: 'vendored',
      schemaRef: '../../schemas/workflow.schema.json',
    });
    expect(decide(root, 'a.yaml')).toEqual({
      source: 'vendored',
      schemaRef: './schemas/workflow.schema.json',
    });
  });

  it('the installed package, found from the file’s folder upward (a monorepo’s hoisted install)', () => {
    const top = project({ 'node_modules/wfsync/schemas/workflow.schema.json': SCHEMA });
    const app = join(top, 'packages/app');
    mkdirSync(app, { recursive: true });
    const decision = decide(app, 'workflows/a.yaml');
    expect(decision).toEqual({
      source: 'installed',
      schemaRef: '../../../node_modules/wfsync/schemas/workflow.schema.json',
    });
    // It resolves: the path from the file's folder names the file that is there.
    const ref = (decision as { schemaRef: string }).schemaRef;
    expect(readFileSync(join(app, 'workflows', ref), 'utf8')).toBe(SCHEMA);
  });

  it('neither, but .vscode/settings.json maps the file to the workflow schema: no modeline (it would win over the mapping)', () => {
    const root = project({
      '.vscode/settings.json':
        '{\n  // comments and trailing commas, as VS Code allows\n  "yaml.schemas": {\n' +
        '    "node_modules/wfsync/schemas/workflow.schema.json": ["workflows/**/*.yaml", "!workflows/k8s/**"],\n  },\n}\n',
    });
    expect(decide(root, 'workflows/a.yaml')).toEqual({ source: 'settings' });
    expect(decide(root, 'workflows/deep/er/a.yaml')).toEqual({ source: 'settings' });
    expect(decide(root, 'workflows/k8s/a.yaml').source).toBe('none');
    expect(decide(root, 'other/a.yaml').source).toBe('none');
  });

  it('a mapping to another schema, or settings that do not parse, cover nothing', () => {
    const k8s = project({
      '.vscode/settings.json': '{"yaml.schemas": {"https://example.com/kubernetes.json": "**/*.yaml"}}',
    });
    expect(decide(k8s, 'workflows/a.yaml').source).toBe('none');
    const broken = project({ '.vscode/settings.json': '{"yaml.schemas": {' });
    expect(decide(broken, 'workflows/a.yaml').source).toBe('none');
  });

  it('nothing at all: no modeline, and a hint saying how to get one', () => {
    const root = project({});
    const decision = decideModeline(readModelineInput(root, join(root, 'workflows/a.yaml')));
    expect(decision).toEqual({
      source: 'none',
      hint:
        'no schema modeline in workflows/a.yaml: wfsync is not installed here (npm install --save-dev wfsync), ' +
        'the repository has no schemas/workflow.schema.json, and .vscode/settings.json does not map the file ' +
        '(wfsync init adds the mapping)',
    });
    expect(modelineOf(decision)).toBe(undefined);
    expect(withModeline('name: x\n', decision)).toBe('name: x\n');
    expect(withModeline('name: x\n', { source: 'installed', schemaRef: './s.json' })).toBe(
      '# yaml-language-server: $schema=./s.json\nname: x\n',
    );
  });

  it('a schema the user named wins, as a URL or relative to the root', () => {
    const input = { root: '/p', path: '/p/w/a.yaml', settingsGlobs: [] };
    expect(decideModeline({ ...input, given: 'vendor/workflow.schema.json' })).toEqual({
      source: 'given',
      schemaRef: '../vendor/workflow.schema.json',
    });
    const url = 'https://example.com/workflow.schema.json';
    expect(decideModeline({ ...input, given: url })).toEqual({ source: 'given', schemaRef: url });
  });
});

describe('globsCover: yaml.schemas globs as VS Code reads them', () => {
  it('any depth, a leading slash dropped, the last matching glob decides, `!` excludes', () => {
    expect(globsCover(['workflows/**/*.yaml'], 'workflows/a.yaml')).toBe(true);
    expect(globsCover(['workflows/*.yaml'], 'svc/workflows/a.yaml')).toBe(true);
    expect(globsCover(['/workflows/*.yaml'], 'workflows/a.yaml')).toBe(true);
    expect(globsCover(['*.yml'], 'workflows/a.yaml')).toBe(false);
    expect(globsCover(['**/*.yaml', '!**/k8s/*.yaml'], 'k8s/a.yaml')).toBe(false);
    expect(globsCover(['!**/k8s/*.yaml', '**/*.yaml'], 'k8s/a.yaml')).toBe(true);
    expect(globsCover([], 'a.yaml')).toBe(false);
  });

  it('a schema is wfsync’s workflow schema by its file name', () => {
    expect(isWorkflowSchema('node_modules/wfsync/schemas/workflow.schema.json')).toBe(true);
    expect(isWorkflowSchema('https://wfsync.dev/schemas/workflow.schema.json?v=2')).toBe(true);
    expect(isWorkflowSchema('https://example.com/kubernetes.json')).toBe(false);
    expect(isWorkflowSchema('my-workflow.schema.json')).toBe(false);
  });
});
