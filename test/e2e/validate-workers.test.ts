import { describe, expect, it } from 'vitest';
import { BROKEN_DEFINITIONS, validNumbered as valid } from '../fixtures/workflow-texts.js';
import { makeProject, runCli } from './helpers.js';

/** Broken files of every kind: reading, YAML, schema, rules (errors and warnings) and shared identifiers. */
const broken: Record<string, string | Uint8Array> = {
  ...BROKEN_DEFINITIONS,
  'tabs.yaml': 'name: x\nsteps:\n\t- a\n',
  'list.yaml': '- name: a\n',
  'copy-b.yaml': `# copied\n${valid(905)}`,
};

function mixedProject(): string {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 40; i++) files[`workflows/ok-${String(i).padStart(2, '0')}.yaml`] = valid(i);
  for (const [name, content] of Object.entries(broken)) files[`workflows/${name}`] = content;
  return makeProject(files);
}

const SINGLE = { WFSYNC_WORKERS: '0' };
const WORKERS = { WFSYNC_WORKERS: '2', WFSYNC_WORKERS_MIN_FILES: '1' };

describe('wfsync validate on worker threads (the built CLI)', () => {
  it('gives byte-identical output to the single-thread path in every format', async () => {
    const cwd = mixedProject();
    for (const format of ['human', 'json', 'github', 'junit', 'sarif']) {
      const args = ['validate', '--verbose', '--format', format];
      const single = await runCli(args, { cwd, env: SINGLE });
      const parallel = await runCli(args, { cwd, env: WORKERS });
      expect(single.stderr).toBe('wfsync: checked 54 files on the main thread\n');
      expect(parallel.stderr).toBe('wfsync: checked 54 files on the main thread and 2 worker threads\n');
      expect(parallel.status).toBe(3);
      expect(parallel.status).toBe(single.status);
      expect(parallel.stdout).toBe(single.stdout);
    }
  });

  it('reports every kind of problem from the workers, with code frames and shared identifiers', async () => {
    const cwd = mixedProject();
    const result = await runCli(['validate', '--format', 'json'], { cwd, env: WORKERS });
    const report = JSON.parse(result.stdout) as { diagnostics: Array<{ file: string; code: string }> };
    const codes = (file: string) =>
      report.diagnostics.filter((d) => d.file === `workflows/${file}`).map((d) => d.code);
    expect(codes('syntax.yaml')).toContain('yaml-syntax');
    expect(codes('tabs.yaml')).toEqual(['yaml-tab-indent']);
    expect(codes('latin1.yaml')).toEqual(['file-encoding']);
    expect(codes('empty.yaml')).toEqual(['file-empty']);
    expect(codes('list.yaml')).toEqual(['root-not-mapping']);
    expect(codes('keys.yaml')).toEqual(['yaml-duplicate-key']);
    expect(codes('schema.yaml')).toEqual(['schema-additional-property', 'schema-enum']);
    expect(codes('required.yaml')).toContain('identifier-duplicate');
    expect(codes('ok-03.yaml')).toEqual(['identifier-duplicate']);
    expect(codes('template.yaml')).toEqual(['template-syntax', 'variable-unused']);
    expect(codes('warnings.yaml')).toEqual(['variable-undeclared']);
    expect(codes('mismatch.yaml')).toEqual(['identifier-name-mismatch']);
    for (const copy of ['copy-a.yaml', 'copy-b.yaml', 'nested/copy-c.yaml'])
      expect(codes(copy)).toEqual(['identifier-duplicate']);
    expect(codes('ok-00.yaml')).toEqual([]);

    const human = await runCli(['validate'], { cwd, env: WORKERS });
    // A file that does not parse still gets its code frame, and so does a duplicate found across workers.
    expect(human.stdout).toContain(
      'workflows/syntax.yaml:2:1 error Flow sequence in block collection must be sufficiently indented and end ' +
        'with a ] (BAD_INDENT) [yaml-syntax]\n  1 | name: [unclosed\n> 2 | steps: {\n    | ^\n',
    );
    expect(human.stdout).toContain(
      'and workflows/nested/copy-c.yaml:11; the service cannot create a second workflow under it (older servers ' +
        'silently add a random suffix, newer ones answer 400), so give each workflow its own name and identifier. ' +
        '[identifier-duplicate]\n  8 |   - type: event\n> 9 |     identifier: order-shipped-905\n',
    );
    expect(human.stdout).toMatch(/✖ 21 problems \(18 errors, 3 warnings\) in 15 of 54 files/);
  });
});
