import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject } from '../../../src/config/project.js';
import { buildDefinitionSources, firstFolder, plainFolders } from '../../../src/config/sources.js';
import { scanDefinitionFiles } from '../../../src/definitions/find.js';
import { type ProjectFiles, tempProject } from '../../helpers/temp-project.js';

const BASE = path.resolve('/project');
const at = (relative: string) => path.join(BASE, relative);

describe('buildDefinitionSources', () => {
  it('a plain folder (the default): everything below it, nothing beside it; plain, so the search asks nothing', () => {
    const sources = buildDefinitionSources({ base: BASE });
    expect(sources.roots).toEqual([at('workflows')]);
    expect(sources.plain).toBe(true);
    expect(sources.classify(at('workflows/a.yaml'))).toBe('definition');
    expect(sources.classify(at('workflows/deep/b.yml'))).toBe('definition');
    expect(sources.classify(at('other/a.yaml'))).toBe('outside');
    expect(sources.classify(at('workflows'))).toBe('outside');
    expect(sources.classify(at('workflows/.hidden/a.yaml'))).toBe('outside');
    expect(sources.classify(at('workflows/node_modules/a.yaml'))).toBe('outside');
    expect(sources.describe).toBe('workflowsDir (workflows)');
  });

  it('a list of folders and globs: a file is taken when a pattern matches it or a folder above it', () => {
    const sources = buildDefinitionSources({
      base: BASE,
      workflowsDir: ['services/*/workflows', './shared/', 'apps/**/*.wf.yaml'],
    });
    expect(sources.roots).toEqual([at('apps'), at('services'), at('shared')]);
    expect(sources.plain).toBe(false);
    expect(sources.classify(at('services/a/workflows/x.yaml'))).toBe('definition');
    expect(sources.classify(at('services/a/workflows/deep/x.yaml'))).toBe('definition');
    expect(sources.classify(at('services/a/k8s/x.yaml'))).toBe('outside');
    expect(sources.classify(at('services/x.yaml'))).toBe('outside');
    expect(sources.classify(at('shared/x.yaml'))).toBe('definition');
    expect(sources.classify(at('apps/web/order.wf.yaml'))).toBe('definition');
    expect(sources.classify(at('apps/web/order.yaml'))).toBe('outside');
  });

  it('exclude: a pattern matching a file or a folder above it; the config file is never a definition', () => {
    const sources = buildDefinitionSources({
      base: BASE,
      workflowsDir: '.',
      exclude: ['services/*/k8s', '**/docker-compose*.yml'],
      configFiles: [at('wfsync.config.yaml')],
      configFile: 'wfsync.config.yaml',
    });
    expect(sources.roots).toEqual([BASE]);
    expect(sources.plain).toBe(false);
    expect(sources.classify(at('wfsync.config.yaml'))).toBe('config');
    expect(sources.classify(at('services/a/k8s/deploy.yaml'))).toBe('excluded');
    expect(sources.classify(at('services/a/k8s/deep/deploy.yaml'))).toBe('excluded');
    expect(sources.classify(at('services/a/docker-compose.dev.yml'))).toBe('excluded');
    expect(sources.classify(at('services/a/order.yaml'))).toBe('definition');
    expect(sources.excludes(at('services/a/k8s'))).toBe(true);
    expect(sources.excludes(at('services/a'))).toBe(false);
    expect(sources.describe).toBe('workflowsDir (.) in wfsync.config.yaml');
  });

  it('nested roots are searched once; firstFolder is the first plain folder, else the first fixed part', () => {
    expect(buildDefinitionSources({ base: BASE, workflowsDir: ['a', 'a/b', 'c/*'] }).roots).toEqual([
      at('a'),
      at('c'),
    ]);
    expect(firstFolder(BASE, ['services/*/workflows', 'shared'])).toBe(at('shared'));
    expect(firstFolder(BASE, ['services/*/workflows'])).toBe(at('services'));
    expect(firstFolder(BASE, undefined)).toBe(at('workflows'));
  });

  it('plainFolders: the folders listed without a pattern, none for patterns only', () => {
    expect(plainFolders(BASE, ['services/*/workflows', './shared/', 'more'])).toEqual([
      at('shared'),
      at('more'),
    ]);
    expect(plainFolders(BASE, ['services/*/workflows', 'apps/{a,b}'])).toEqual([]);
    expect(plainFolders(BASE, undefined)).toEqual([at('workflows')]);
    expect(plainFolders(BASE, '.')).toEqual([BASE]);
  });
});

describe('the config and the search together', () => {
  const project = (files: ProjectFiles) => tempProject(files, 'wfsync-sources-');

  it('readProject parses workflowsDir as a string or a list, and exclude; the search takes only what they say', async () => {
    const cwd = project({
      'wfsync.config.yaml': 'workflowsDir: [services/*/workflows, .]\nexclude: [deploy]\n',
      'services/a/workflows/a.yaml': 'x: 1\n',
      'services/a/k8s/k.yaml': 'x: 1\n',
      'deploy/d.yaml': 'x: 1\n',
      'root.yml': 'x: 1\n',
    });
    const options = readProject({}, cwd);
    const scan = await scanDefinitionFiles([], { cwd, defaultDir: 'workflows', sources: options.sources });
    // `.` takes services/a/k8s too; deploy/ is excluded (not even entered); the config is never a definition.
    expect(scan.files).toEqual(['root.yml', 'services/a/k8s/k.yaml', 'services/a/workflows/a.yaml']);
    const given = await scanDefinitionFiles(['wfsync.config.yaml', 'deploy', 'root.yml'], {
      cwd,
      defaultDir: 'workflows',
      sources: options.sources,
    });
    expect(given.files).toEqual(['root.yml']);
    expect(given.outside).toEqual([
      { path: 'wfsync.config.yaml', why: 'config' },
      { path: 'deploy', why: 'excluded' },
    ]);
  });

  it('a config whose workflowsDir is neither a path nor a list of paths is refused (exit 3)', () => {
    const cwd = project({ 'wfsync.config.yaml': 'workflowsDir: [services, 3]\nexclude: workflows/k8s\n' });
    let error: unknown;
    try {
      readProject({}, cwd);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ exitCode: 3 });
    const messages = (error as { diagnostics: Array<{ pointer: string; message: string }> }).diagnostics;
    expect(messages.map((d) => d.pointer)).toEqual(expect.arrayContaining(['/exclude', '/workflowsDir/1']));
  });
});
