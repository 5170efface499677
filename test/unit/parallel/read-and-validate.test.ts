import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanDefinitionFiles } from '../../../src/definitions/find.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { readDefinitions } from '../../../src/definitions/read.js';
import { sortDiagnostics } from '../../../src/diagnostic.js';
import { type CheckSetup, checkDefinitionFile } from '../../../src/parallel/check-file.js';
import { chunkSize, workersAvailable } from '../../../src/parallel/pool.js';
import { mergeOutcomes, readAndValidateDefinitions } from '../../../src/parallel/read-and-validate.js';
import { buildValidation } from '../../../src/validate/index.js';
import type { RuleOptions } from '../../../src/validate/rules/index.js';
import { useTempProjects } from '../../fixtures/temp-projects.js';
import { VALID } from '../../fixtures/workflow-texts.js';

const EXAMPLES = fileURLToPath(new URL('../../../workflows/', import.meta.url));

/** Valid files, broken ones of every kind, and an identifier shared by three files (one failing the schema). */
const PROJECT: Record<string, string | Uint8Array> = {
  'workflows/a-valid.yaml': VALID,
  'workflows/b-copy.yaml': `# the same workflow again\n${VALID}`,
  'workflows/c-schema.yaml': VALID.replace('type: chat', 'type: chatt').replace('name: chat', 'nmae: chat'),
  'workflows/d-syntax.yaml': 'name: [unclosed\nsteps: {\n',
  'workflows/e-tabs.yaml': 'name: x\nsteps:\n\t- a\n',
  'workflows/f-encoding.yaml': new Uint8Array([0x6e, 0x3a, 0x20, 0xe9, 0x0a]),
  'workflows/g-warnings.yaml': VALID.replace('{{orderId}}', '{{orderId}} {{carrier}} {{#if x}}{{/if}}')
    .replace('order shipped', 'Order Shipped Twice')
    .replace('identifier: order-shipped', 'identifier: order-shipped-twice'),
  'workflows/h-duplicate-keys.yaml': `${VALID}name: again\nname: thrice\n`,
  'workflows/i-empty.yaml': '',
  'workflows/j-other.yaml': VALID.replace(/order shipped/, 'order sent').replace(
    /order-shipped/,
    'order-sent',
  ),
  'workflows/k-identifier-only.yaml': 'triggers: [{ identifier: order-sent }]\n',
};

const project = useTempProjects('wfsync-parallel-');

const RULES: RuleOptions = { severities: { 'variable-undeclared': 'info' } };

/** The per-file outcomes computed on this thread, in a shuffled order, then put back in file order. */
async function mergedInThread(cwd: string) {
  const scan = await scanDefinitionFiles([], { cwd, defaultDir: 'workflows' });
  const setup: CheckSetup = { cwd, limits: { ...DEFAULT_LOAD_LIMITS }, rules: RULES };
  const order = scan.files.map((_, i) => i).reverse();
  const outcomes = new Array(scan.files.length);
  for (const i of order) outcomes[i] = checkDefinitionFile(scan.files[i]!, setup);
  return mergeOutcomes(scan, outcomes, setup);
}

describe('readAndValidateDefinitions', () => {
  it('on the main thread, gives what readDefinitions + buildValidation give, with every text', async () => {
    const cwd = project(PROJECT);
    const result = await readAndValidateDefinitions([], {
      cwd,
      defaultDir: 'workflows',
      rules: RULES,
      workers: 0,
      minFiles: 1,
    });
    const read = await readDefinitions([], { cwd, defaultDir: 'workflows' });
    const reference = sortDiagnostics([
      ...read.diagnostics,
      ...buildValidation({ definitions: read.definitions, options: RULES }),
    ]);
    expect(result.workers).toBe(0);
    expect(result.files).toEqual(Object.keys(PROJECT));
    expect(result.diagnostics).toEqual(reference);
    expect(
      result.diagnostics.map((d) => `${d.file.slice('workflows/'.length)} ${d.severity} ${d.code}`),
    ).toEqual([
      'a-valid.yaml error identifier-duplicate',
      'b-copy.yaml error identifier-duplicate',
      'c-schema.yaml error schema-additional-property',
      'c-schema.yaml error schema-enum',
      'c-schema.yaml error identifier-duplicate',
      'd-syntax.yaml error yaml-syntax',
      'd-syntax.yaml error yaml-syntax',
      'e-tabs.yaml error yaml-tab-indent',
      'f-encoding.yaml error file-encoding',
      'g-warnings.yaml info variable-undeclared',
      'g-warnings.yaml info variable-undeclared',
      'h-duplicate-keys.yaml error yaml-duplicate-key',
      'h-duplicate-keys.yaml error yaml-duplicate-key',
      'i-empty.yaml error file-empty',
      'j-other.yaml error identifier-duplicate',
      // Three findings at the same place with the same code: their order is the single-thread path's.
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error identifier-duplicate',
    ]);
    expect(result.sources.get('workflows/d-syntax.yaml')).toBe(PROJECT['workflows/d-syntax.yaml']);
    expect(result.sources.has('workflows/f-encoding.yaml')).toBe(false);
  });

  it('merges per-file outcomes from any thread into exactly the single-thread report', async () => {
    const cwd = project(PROJECT);
    const single = await readAndValidateDefinitions([], {
      cwd,
      defaultDir: 'workflows',
      rules: RULES,
      workers: 0,
      minFiles: 1,
    });
    const merged = await mergedInThread(cwd);
    expect(merged.files).toEqual(single.files);
    expect(merged.diagnostics).toEqual(single.diagnostics);
    // Texts travel only for files with findings (all a report can frame), and they are the same texts.
    const framed = new Set(single.diagnostics.map((d) => d.file));
    for (const file of framed) expect(merged.sources.get(file)).toBe(single.sources.get(file));
    expect([...merged.sources.keys()].every((file) => framed.has(file))).toBe(true);
    const duplicates = merged.diagnostics.filter((d) => d.code === 'identifier-duplicate');
    expect(duplicates.map((d) => `${d.file}:${d.line}`)).toEqual([
      'workflows/a-valid.yaml:9',
      'workflows/b-copy.yaml:10',
      'workflows/c-schema.yaml:9',
      'workflows/j-other.yaml:9',
      'workflows/k-identifier-only.yaml:1',
    ]);
  });

  it('matches the single-thread report on the example workflows too', async () => {
    const cwd = project({});
    cpSync(EXAMPLES, path.join(cwd, 'workflows'), { recursive: true });
    const options = { cwd, defaultDir: 'workflows', rules: RULES, workers: 0, minFiles: 1 };
    const single = await readAndValidateDefinitions([], options);
    const merged = await mergedInThread(cwd);
    expect(merged.files.length).toBeGreaterThan(5);
    expect(merged.diagnostics).toEqual(single.diagnostics);
  });

  it('frames findings inside included files from their texts, the same in any thread order', async () => {
    const including = (identifier: string, file: string) =>
      VALID.replace('"Order {{orderId}} shipped"', `{ file: ${file} }`)
        .replace('order shipped', identifier.replace('-', ' '))
        .replace('order-shipped', identifier);
    const cwd = project({
      'wfsync.config.yaml': 'workflowsDir: workflows\n',
      'workflows/a.yaml': including('order-a', './texts/shared.txt'),
      'workflows/b.yaml': including('order-b', './texts/shared.txt'),
      'workflows/c.yaml': including('order-c', './texts/fine.txt'),
      'workflows/texts/shared.txt': 'Order {{orderId}}\r\nby {{carrier}}\r\n',
      'workflows/texts/fine.txt': 'Order {{orderId}}\n',
    });
    const single = await readAndValidateDefinitions([], {
      cwd,
      defaultDir: 'workflows',
      rules: RULES,
      workers: 0,
      minFiles: 1,
    });
    const read = await readDefinitions([], { cwd, defaultDir: 'workflows' });
    expect(single.diagnostics).toEqual(buildValidation({ definitions: read.definitions, options: RULES }));
    expect(single.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.includedBy}`)).toEqual([
      'workflows/texts/shared.txt:2:6 workflows/a.yaml',
      'workflows/texts/shared.txt:2:6 workflows/b.yaml',
    ]);
    // The included text (line breaks as LF, no final one): frames show the file's lines. No other text travels.
    expect([...single.sources]).toEqual([
      ['workflows/a.yaml', read.sources.get('workflows/a.yaml')],
      ['workflows/b.yaml', read.sources.get('workflows/b.yaml')],
      ['workflows/texts/shared.txt', 'Order {{orderId}}\nby {{carrier}}'],
    ]);
    const merged = await mergedInThread(cwd);
    expect(merged.diagnostics).toEqual(single.diagnostics);
    expect(merged.sources).toEqual(single.sources);
  });

  it('stays on the main thread when run from the TypeScript sources, whatever is asked', async () => {
    expect(workersAvailable()).toBe(false); // worker.js exists only in dist/
    const cwd = project({ 'workflows/a.yaml': VALID, 'workflows/b.yaml': VALID });
    const result = await readAndValidateDefinitions([], {
      cwd,
      defaultDir: 'workflows',
      rules: {},
      workers: 4,
      minFiles: 1,
    });
    expect(result.workers).toBe(0);
    expect(result.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      'workflows/a.yaml identifier-duplicate',
      'workflows/b.yaml identifier-duplicate',
    ]);
  });
});

describe('chunkSize', () => {
  it('hands each worker about 8 chunks, between 1 and 100 files', () => {
    expect(chunkSize(10_000, 2)).toBe(100);
    expect(chunkSize(1_000, 2)).toBe(63);
    expect(chunkSize(200, 4)).toBe(7);
    expect(chunkSize(3, 2)).toBe(1);
  });
});
