import { describe, expect, it } from 'vitest';
import { checkDefinitions } from '../../../src/check/check-definitions.js';
import { buildDefinitionSources } from '../../../src/config/sources.js';
import { validNumbered } from '../../fixtures/workflow-texts.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const project = useTempProjects('wfsync-project-ids-');

/** Three service folders; c's copy shares a's identifier; b's file has a schema error of its own. */
function monorepo(): string {
  return project({
    'services/a/workflows/one.yaml': validNumbered(1),
    'services/b/workflows/broken.yaml': validNumbered(2).replace('type: chat', 'type: chatt'),
    'services/c/workflows/copy.yaml': `# copy\n${validNumbered(1)}`,
    'services/c/workflows/four.yaml': validNumbered(4),
  });
}

describe('checkDefinitions with paths and the project sources', () => {
  const options = (cwd: string) => ({
    cwd,
    defaultDir: 'workflows',
    sources: buildDefinitionSources({ base: cwd, workflowsDir: ['services/*/workflows'] }),
    rules: {},
  });

  it('checks the given files, and their identifiers against every other definition (whose own findings stay out)', async () => {
    const cwd = monorepo();
    const checked = await checkDefinitions(['services/c/workflows'], options(cwd));
    expect(checked.files).toEqual(['services/c/workflows/copy.yaml', 'services/c/workflows/four.yaml']);
    expect(checked.others).toBe(2);
    expect(checked.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual([
      'services/c/workflows/copy.yaml:10 identifier-duplicate',
    ]);
    expect(checked.diagnostics[0]!.message).toContain(
      'identifier `order-shipped-1` is also used by services/a/workflows/one.yaml:9;',
    );
    expect([...checked.sources.keys()]).toEqual(['services/c/workflows/copy.yaml']);
  });

  it('the same through the cache, cold and warm', async () => {
    const cwd = monorepo();
    let stored = new Map<string, unknown>();
    for (const round of ['cold', 'warm']) {
      const checked = await checkDefinitions(['services/c/workflows/copy.yaml'], {
        ...options(cwd),
        cache: { root: cwd, stored },
      });
      expect(
        checked.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`),
        round,
      ).toEqual(['services/c/workflows/copy.yaml:10 identifier-duplicate']);
      stored = new Map(checked.cache!.entries);
    }
    expect(stored.size).toBe(4);
  });

  it('without paths, every definition is checked and the duplicate is reported in both files', async () => {
    const cwd = monorepo();
    const checked = await checkDefinitions([], options(cwd));
    expect(checked.others).toBe(0);
    expect(checked.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual([
      'services/a/workflows/one.yaml:9 identifier-duplicate',
      'services/b/workflows/broken.yaml:5 schema-enum',
      'services/c/workflows/copy.yaml:10 identifier-duplicate',
    ]);
  });
});
