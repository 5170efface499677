import { describe, expect, it } from 'vitest';
import {
  buildInitActions,
  type InitAction,
  type InitInput,
  initPaths,
} from '../../../src/scaffold/init-plan.js';
import { NOTHING_TO_DO, renderInitLine, renderInitSummary } from '../../../src/scaffold/init-report.js';
import { PACKAGE_SCHEMA_PATH } from '../../../src/scaffold/schema-ref.js';

const BASE: InitInput = {
  configPath: 'wfsync.config.yaml',
  workflowsDir: 'workflows',
  schemaPath: PACKAGE_SCHEMA_PATH,
  ci: 'github',
  force: false,
  existing: new Map(),
  otherDefinitions: false,
  // Nothing on disk: no installed package, no schemas/ of the repository's own.
  exampleSchemas: { root: '/p', path: '/p/workflows/welcome.yaml' },
  configSchemas: { root: '/p', path: '/p/wfsync.config.yaml' },
};

const ALL_PATHS = [
  'wfsync.config.yaml',
  'workflows/welcome.yaml',
  '.vscode/settings.json',
  '.gitignore',
  '.github/workflows/wfsync-pr.yml',
  '.github/workflows/wfsync-sync.yml',
  '.github/workflows/wfsync-drift.yml',
];

function statuses(actions: readonly InitAction[]): Record<string, string> {
  return Object.fromEntries(actions.map((a) => [a.path, a.note ? `${a.status} (${a.note})` : a.status]));
}

/** The files a first run writes, as the next run's snapshot. */
function afterFirstRun(input: Partial<InitInput> = {}): Map<string, string> {
  const actions = buildInitActions({ ...BASE, ...input });
  return new Map(
    actions.flatMap((a) => (a.text === undefined ? [] : [[a.path, a.text] as [string, string]])),
  );
}

describe('buildInitActions', () => {
  it('an empty directory: every file is created, in a stable order', () => {
    const actions = buildInitActions(BASE);
    expect(actions.map((a) => [a.path, a.status])).toEqual(ALL_PATHS.map((p) => [p, 'created']));
    expect(actions.every((a) => typeof a.text === 'string' && a.text.endsWith('\n'))).toBe(true);
    expect(initPaths(BASE)).toEqual(ALL_PATHS);
  });

  it('the files refer to the schema from where each one is', () => {
    const files = afterFirstRun({ workflowsDir: 'notifications/workflows' });
    // Nothing installed and no schemas/ of its own: a modeline would name a file that is not there.
    expect(files.get('wfsync.config.yaml')?.split('\n')[0]).toBe(
      '# wfsync: workflow definitions kept as code. `wfsync help` lists the commands.',
    );
    expect(files.get('wfsync.config.yaml')).toContain('\nworkflowsDir: notifications/workflows\n');
    // Nothing to point at yet: the settings init writes map the example, and a modeline would override them.
    expect(files.get('notifications/workflows/welcome.yaml')?.split('\n')[0]).toBe(
      '# An example written by `wfsync init`. Try `wfsync validate`, then `wfsync sync` (the local target: an embedded',
    );
    expect(JSON.parse(files.get('.vscode/settings.json')!)).toEqual({
      'yaml.schemas': {
        [PACKAGE_SCHEMA_PATH]: ['notifications/workflows/**/*.yaml', 'notifications/workflows/**/*.yml'],
      },
    });
  });

  it('the example’s modeline names the schema that is there: the repository’s own, the installed one, or --schema-path', () => {
    const first = (input: Partial<InitInput>) =>
      afterFirstRun(input).get('workflows/welcome.yaml')?.split('\n')[0];
    const root = '/p';
    const path = '/p/workflows/welcome.yaml';
    expect(
      first({
        exampleSchemas: {
          root,
          path,
          vendored: '/p/schemas/workflow.schema.json',
          installed: '/node_modules/wfsync/schemas/workflow.schema.json',
        },
      }),
    ).toBe('# yaml-language-server: $schema=../schemas/workflow.schema.json');
    expect(
      first({
        exampleSchemas: { root, path, installed: '/node_modules/wfsync/schemas/workflow.schema.json' },
      }),
    ).toBe('# yaml-language-server: $schema=../../node_modules/wfsync/schemas/workflow.schema.json');
    expect(first({ schemaPath: 'vendor/workflow.schema.json', schemaPathGiven: true })).toBe(
      '# yaml-language-server: $schema=../vendor/workflow.schema.json',
    );
  });

  it('the config’s modeline is decided as the example’s: the repository’s own, the installed one, --schema-path', () => {
    const first = (input: Partial<InitInput>) =>
      afterFirstRun(input).get('wfsync.config.yaml')?.split('\n')[0];
    const root = '/p';
    const path = '/p/wfsync.config.yaml';
    expect(first({ configSchemas: { root, path, vendored: '/p/schemas/workflow.schema.json' } })).toBe(
      '# yaml-language-server: $schema=./schemas/config.schema.json',
    );
    expect(
      first({
        configSchemas: { root, path, installed: '/node_modules/wfsync/schemas/workflow.schema.json' },
      }),
    ).toBe('# yaml-language-server: $schema=../node_modules/wfsync/schemas/config.schema.json');
    expect(
      first({ schemaPath: 'https://wfsync.dev/schemas/workflow.schema.json', schemaPathGiven: true }),
    ).toBe('# yaml-language-server: $schema=https://wfsync.dev/schemas/config.schema.json');
  });

  it('a file written without a modeline says why (for --verbose); one with a modeline does not', () => {
    const reasons = (input: Partial<InitInput>) =>
      Object.fromEntries(buildInitActions({ ...BASE, ...input }).map((a) => [a.path, a.noModeline]));
    const bare = reasons({});
    expect(bare['wfsync.config.yaml']).toBe(
      'no schema modeline in wfsync.config.yaml: wfsync is not installed here (npm install --save-dev wfsync) and ' +
        'the repository has no schemas/config.schema.json; once installed, make its first line ' +
        '`# yaml-language-server: $schema=./node_modules/wfsync/schemas/config.schema.json`',
    );
    expect(bare['workflows/welcome.yaml']).toBe(
      'no schema modeline in workflows/welcome.yaml: .vscode/settings.json maps it to the schema (a modeline ' +
        'would override the mapping)',
    );
    const unmapped = reasons({ existing: new Map([['.vscode/settings.json', '{ "yaml.schemas": 3 }\n']]) });
    expect(unmapped['workflows/welcome.yaml']).toMatch(
      /^no schema modeline in workflows\/welcome\.yaml: wfsync is not installed/,
    );
    const vendored = { root: '/p', vendored: '/p/schemas/workflow.schema.json' };
    const installed = reasons({
      configSchemas: { ...vendored, path: '/p/wfsync.config.yaml' },
      exampleSchemas: { ...vendored, path: '/p/workflows/welcome.yaml' },
    });
    expect(installed['wfsync.config.yaml']).toBeUndefined();
    expect(installed['workflows/welcome.yaml']).toBeUndefined();
  });

  it('settings that cannot be merged (so they do not map the example) and nothing installed: no modeline', () => {
    const existing = new Map([['.vscode/settings.json', '{ "yaml.schemas": 3 }\n']]);
    const actions = buildInitActions({ ...BASE, existing });
    expect(actions.find((a) => a.path === '.vscode/settings.json')?.status).toBe('kept');
    expect(actions.find((a) => a.path === 'workflows/welcome.yaml')?.text?.startsWith('# An example')).toBe(
      true,
    );
  });

  it('a second run over the first one’s files: everything unchanged, nothing to write', () => {
    const actions = buildInitActions({ ...BASE, existing: afterFirstRun() });
    expect(actions.map((a) => a.status)).toEqual(ALL_PATHS.map(() => 'unchanged'));
    expect(actions.some((a) => a.text !== undefined)).toBe(false);
  });

  it('the same files with CRLF line endings (a Windows checkout) are the same files', () => {
    const crlf = new Map([...afterFirstRun()].map(([path, text]) => [path, text.replace(/\n/g, '\r\n')]));
    expect(buildInitActions({ ...BASE, existing: crlf }).map((a) => a.status)).toEqual(
      ALL_PATHS.map(() => 'unchanged'),
    );
  });

  it('files wfsync writes that exist with other content are kept; --force replaces them', () => {
    const existing = new Map([
      ['wfsync.config.yaml', 'workflowsDir: workflows\n'],
      ['.github/workflows/wfsync-pr.yml', 'name: ours\n'],
    ]);
    expect(statuses(buildInitActions({ ...BASE, existing }))).toMatchObject({
      'wfsync.config.yaml': 'kept (exists; --force to replace)',
      '.github/workflows/wfsync-pr.yml': 'kept (exists; --force to replace)',
      '.github/workflows/wfsync-sync.yml': 'created',
    });
    const forced = buildInitActions({ ...BASE, existing, force: true });
    expect(statuses(forced)).toMatchObject({
      'wfsync.config.yaml': 'replaced',
      '.github/workflows/wfsync-pr.yml': 'replaced',
    });
    expect(forced.find((a) => a.path === 'wfsync.config.yaml')?.text).toBe(
      afterFirstRun().get('wfsync.config.yaml'),
    );
  });

  it('files the user owns are merged, never replaced, even with --force', () => {
    const existing = new Map([
      ['.gitignore', 'node_modules/\n'],
      ['.vscode/settings.json', '{\n  // mine\n  "editor.tabSize": 2\n}\n'],
    ]);
    const actions = buildInitActions({ ...BASE, existing, force: true });
    expect(statuses(actions)).toMatchObject({
      '.gitignore': 'updated (merged: 6 entries added)',
      '.vscode/settings.json': 'updated (merged: added yaml.schemas)',
    });
    expect(actions.find((a) => a.path === '.gitignore')?.text?.startsWith('node_modules/\n\n# wfsync')).toBe(
      true,
    );
    expect(actions.find((a) => a.path === '.vscode/settings.json')?.text).toContain('// mine');
  });

  it('settings that cannot be merged safely are kept, with what to add by hand', () => {
    const existing = new Map([['.vscode/settings.json', '{ "a": 1,, }']]);
    const action = buildInitActions({ ...BASE, existing }).find((a) => a.path === '.vscode/settings.json');
    expect(action).toEqual({
      path: '.vscode/settings.json',
      status: 'kept',
      note: 'not merged: it is not valid JSON with comments (expected a property name or "}" at 1:10)',
      manual: `"yaml.schemas": {\n  "${PACKAGE_SCHEMA_PATH}": [\n    "workflows/**/*.yaml",\n    "workflows/**/*.yml"\n  ]\n}`,
    });
  });

  it('a workflows directory with definitions of its own gets no example', () => {
    const actions = buildInitActions({ ...BASE, otherDefinitions: true });
    expect(statuses(actions)['workflows/welcome.yaml']).toBe('skipped (workflows/ already has definitions)');
    // …unless the example is one of them: it is then compared as usual.
    const again = buildInitActions({ ...BASE, otherDefinitions: true, existing: afterFirstRun() });
    expect(statuses(again)['workflows/welcome.yaml']).toBe('unchanged');
  });

  it('--ci none writes no CI files; an existing wfsync.config.yml is the config', () => {
    const actions = buildInitActions({ ...BASE, ci: 'none', configPath: 'wfsync.config.yml' });
    expect(actions.map((a) => a.path)).toEqual([
      'wfsync.config.yml',
      'workflows/welcome.yaml',
      '.vscode/settings.json',
      '.gitignore',
    ]);
  });
});

describe('what init prints', () => {
  it('one aligned line per file, with its note', () => {
    expect(renderInitLine({ path: 'wfsync.config.yaml', status: 'created' })).toBe(
      'created    wfsync.config.yaml\n',
    );
    expect(renderInitLine({ path: 'a.yml', status: 'kept', note: 'exists; --force to replace' })).toBe(
      'kept       a.yml (exists; --force to replace)\n',
    );
  });

  it('nothing changed and nothing kept: says so', () => {
    const actions = buildInitActions({ ...BASE, existing: afterFirstRun() });
    expect(renderInitSummary(actions, { notes: [], ci: true })).toBe(`\n${NOTHING_TO_DO}\n`);
  });

  it('something written: what to do next', () => {
    const text = renderInitSummary(buildInitActions(BASE), { notes: ['wfsync is missing'], ci: true });
    expect(text).toBe(
      '\nnote: wfsync is missing\n' +
        '\nNext: `wfsync validate`, then `wfsync sync` (the built-in local target: no account needed).\n' +
        "For a real service, fill in the development target in the config and add the Development environment's API key as the repository secret WFSYNC_DEVELOPMENT_API_KEY.\n",
    );
  });

  it('kept files and settings to edit by hand: nothing changed, and the snippet', () => {
    const existing = new Map([
      ...afterFirstRun(),
      ['wfsync.config.yaml', 'defaultTarget: local\n'],
      ['.vscode/settings.json', '[]'],
    ]);
    const text = renderInitSummary(buildInitActions({ ...BASE, existing }), { notes: [], ci: false });
    expect(text).toBe(
      '\n.vscode/settings.json was left as it is; add this to it by hand:\n' +
        `  "yaml.schemas": {\n    "${PACKAGE_SCHEMA_PATH}": [\n      "workflows/**/*.yaml",\n      "workflows/**/*.yml"\n    ]\n  }\n` +
        '\nnothing changed: 1 file kept as it was (--force replaces it)\n',
    );
  });
});
