import { symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryKey } from '../../../src/cache/check-cached.js';
import { hashContent } from '../../../src/cache/hash.js';
import { parseStoredCache, serializeCache } from '../../../src/cache/store.js';
import { type CheckResult, checkDefinitions } from '../../../src/check/check-definitions.js';
import type { LoadLimits } from '../../../src/definitions/limits.js';
import type { RuleOptions } from '../../../src/validate/rules/index.js';
import { VALID } from '../../fixtures/workflow-texts.js';
import { useTempProjects, writeFiles } from '../../helpers/temp-project.js';

/** An email whose subject and content live in files; the content uses a variable the trigger does not declare. */
const WITH_INCLUDES = `name: welcome
steps:
  - name: welcome email
    template:
      type: email
      subject: { file: ./emails/welcome.subject.txt }
      content: { file: ./emails/welcome.html }
triggers:
  - type: event
    identifier: welcome
    variables:
      - { name: firstName, type: String }
`;

/** Valid files, broken ones of every kind, includes, and an identifier shared by three files. */
const PROJECT: Record<string, string | Uint8Array> = {
  'wfsync.config.yaml': 'workflowsDir: workflows\n',
  'workflows/a-valid.yaml': VALID,
  'workflows/b-copy.yaml': `# the same workflow again\n${VALID}`,
  'workflows/c-schema.yaml': VALID.replace('type: chat', 'type: chatt').replace('name: chat', 'nmae: chat'),
  'workflows/d-syntax.yaml': 'name: [unclosed\nsteps: {\n',
  'workflows/e-encoding.yaml': new Uint8Array([0x6e, 0x3a, 0x20, 0xe9, 0x0a]),
  'workflows/f-warnings.yaml': VALID.replace('{{orderId}}', '{{orderId}} {{carrier}}')
    .replace('order shipped', 'order noted')
    .replace('identifier: order-shipped', 'identifier: order-noted'),
  'workflows/g-bom.yaml': `\uFEFF${VALID.replace('type: chat', 'type: chatt').replace('order-shipped', 'order-bom')}`,
  'workflows/h-includes.yaml': WITH_INCLUDES,
  'workflows/emails/welcome.subject.txt': 'Welcome, {{firstName}}\n',
  'workflows/emails/welcome.html': '<p>Hi {{firstName}}, from {{sender}}</p>\n',
  'workflows/nested/i-other.yaml': VALID.replace(
    'identifier: order-shipped',
    'identifier: order-other',
  ).replace('order shipped', 'order other'),
  'workflows/nested/k-identifier-only.yaml': 'triggers: [{ identifier: order-shipped }]\n',
};

const RULES: RuleOptions = { severities: { 'variable-unused': 'info' } };

const project = useTempProjects('wfsync-cache-check-');

interface Run {
  result: CheckResult;
  /** The cache as the next run reads it (through the file format). */
  stored: Map<string, unknown>;
  unchanged: number;
  changed: boolean;
}

/** One `validate --cache` run from `cwd` (root: `root`), with the entries a previous run stored. */
async function cachedRun(
  cwd: string,
  stored: Map<string, unknown>,
  options: { root?: string; defaultDir?: string; paths?: string[]; limits?: Partial<LoadLimits> } = {},
): Promise<Run> {
  const result = await checkDefinitions(options.paths ?? [], {
    cwd,
    defaultDir: options.defaultDir ?? 'workflows',
    rules: RULES,
    ...(options.limits ? { limits: options.limits } : {}),
    cache: { root: options.root ?? cwd, stored },
  });
  const cache = result.cache!;
  const next = parseStoredCache(serializeCache('key', cache.entries), 'key').entries;
  return { result, stored: next, unchanged: cache.unchanged, changed: cache.changed };
}

async function plainRun(cwd: string, options: { defaultDir?: string; limits?: Partial<LoadLimits> } = {}) {
  return checkDefinitions([], {
    cwd,
    defaultDir: options.defaultDir ?? 'workflows',
    rules: RULES,
    ...(options.limits ? { limits: options.limits } : {}),
  });
}

/** The whole report a renderer gets: files, diagnostics, and the texts of framed files. */
function report(result: CheckResult) {
  return { files: result.files, diagnostics: result.diagnostics, sources: new Map(result.sources) };
}

describe('checkDefinitions with a cache', () => {
  it('cold and warm, gives exactly the report of a run without the cache', async () => {
    const cwd = project(PROJECT);
    const plain = await plainRun(cwd);
    const cold = await cachedRun(cwd, new Map());
    expect(report(cold.result)).toEqual(report(plain));
    expect(cold.unchanged).toBe(0);
    expect(cold.changed).toBe(true);
    const warm = await cachedRun(cwd, cold.stored);
    expect(report(warm.result)).toEqual(report(plain));
    expect(warm.unchanged).toBe(plain.files.length);
    expect(warm.changed).toBe(false);
    // The premise: findings of every kind, frames from decoded bytes (a BOM dropped), includes, shared identifiers.
    const codes = new Set(plain.diagnostics.map((d) => d.code));
    for (const code of [
      'yaml-syntax',
      'file-encoding',
      'schema-enum',
      'variable-undeclared',
      'identifier-duplicate',
    ])
      expect(codes).toContain(code);
    expect(plain.sources.get('workflows/g-bom.yaml')?.startsWith('name:')).toBe(true);
    // A finding inside an included file: named by it, framed from its text, on a hit too (warm equals plain).
    expect(
      plain.diagnostics.some(
        (d) => d.file === 'workflows/emails/welcome.html' && d.includedBy === 'workflows/h-includes.yaml',
      ),
    ).toBe(true);
    expect(plain.sources.get('workflows/emails/welcome.html')).toBe(
      '<p>Hi {{firstName}}, from {{sender}}</p>',
    );
    expect(warm.result.sources.get('workflows/emails/welcome.html')).toBe(
      plain.sources.get('workflows/emails/welcome.html'),
    );
  });

  it('reuses a stored outcome on a hit, without checking the file again', async () => {
    const cwd = project({ 'workflows/a.yaml': VALID });
    const cold = await cachedRun(cwd, new Map());
    // An entry with the file's hash but a finding the file does not have: a hit reports what was stored.
    const forged = {
      hash: hashContent(VALID),
      identifier: 'order-shipped',
      diagnostics: [
        {
          code: 'forged',
          severity: 'warning',
          message: 'stored, not computed',
          file: 'workflows/a.yaml',
          pointer: '/name',
          line: 1,
          column: 7,
          endLine: 1,
          endColumn: 20,
        },
      ],
    };
    expect(cold.stored.get('workflows/a.yaml')).toEqual({
      path: 'workflows/a.yaml',
      hash: forged.hash,
      identifier: 'order-shipped',
    });
    const warm = await cachedRun(cwd, new Map([['workflows/a.yaml', forged]]));
    expect(warm.unchanged).toBe(1);
    expect(warm.result.diagnostics.map((d) => d.code)).toEqual(['forged']);
    expect(warm.result.sources.get('workflows/a.yaml')).toBe(VALID);
    // The same entry under another hash is a miss: the file is checked, and the entry replaced.
    const stale = await cachedRun(
      cwd,
      new Map([['workflows/a.yaml', { ...forged, hash: hashContent('x') }]]),
    );
    expect(stale.unchanged).toBe(0);
    expect(stale.result.diagnostics).toEqual([]);
    expect(stale.stored.get('workflows/a.yaml')).toEqual(cold.stored.get('workflows/a.yaml'));
    // And so is a malformed one.
    const broken = await cachedRun(cwd, new Map([['workflows/a.yaml', { ...forged, diagnostics: [{}] }]]));
    expect(broken.unchanged).toBe(0);
    expect(broken.result.diagnostics).toEqual([]);
  });

  it('an edited file is checked again, and only that one', async () => {
    const cwd = project(PROJECT);
    const cold = await cachedRun(cwd, new Map());
    writeFiles(cwd, { 'workflows/a-valid.yaml': VALID.replace('type: chat', 'type: chatt') });
    const warm = await cachedRun(cwd, cold.stored);
    expect(warm.unchanged).toBe(cold.result.files.length - 1);
    expect(report(warm.result)).toEqual(report(await plainRun(cwd)));
    expect(
      warm.result.diagnostics.some((d) => d.file === 'workflows/a-valid.yaml' && d.code === 'schema-enum'),
    ).toBe(true);
  });

  it('an edited included file makes the definitions that include it be checked again', async () => {
    const cwd = project(PROJECT);
    const cold = await cachedRun(cwd, new Map());
    const undeclared = (run: Run) =>
      run.result.diagnostics
        .filter((d) => (d.includedBy ?? d.file) === 'workflows/h-includes.yaml')
        .map((d) => d.code);
    expect(undeclared(cold)).toEqual(['variable-undeclared']);
    writeFiles(cwd, { 'workflows/emails/welcome.html': '<p>Hi {{firstName}}</p>\n' });
    const edited = await cachedRun(cwd, cold.stored);
    expect(edited.unchanged).toBe(cold.result.files.length - 1);
    expect(undeclared(edited)).toEqual([]);
    expect(report(edited.result)).toEqual(report(await plainRun(cwd)));
    // The same text with other line endings and a BOM is the same included text: still a hit.
    writeFiles(cwd, { 'workflows/emails/welcome.html': '\uFEFF<p>Hi {{firstName}}</p>\r\n' });
    expect((await cachedRun(cwd, edited.stored)).unchanged).toBe(cold.result.files.length);
  });

  it('a reference that no longer resolves is reported, and not cached until it resolves again', async () => {
    const cwd = project(PROJECT);
    const cold = await cachedRun(cwd, new Map());
    unlinkSync(path.join(cwd, 'workflows/emails/welcome.html'));
    const missing = await cachedRun(cwd, cold.stored);
    expect(missing.unchanged).toBe(cold.result.files.length - 1);
    expect(
      missing.result.diagnostics.filter((d) => d.file === 'workflows/h-includes.yaml').map((d) => d.code),
    ).toEqual(['include-not-found']);
    expect(missing.stored.has('workflows/h-includes.yaml')).toBe(false);
    // Whether a file exists is not a content hash: with the file back, the reference resolves at once.
    writeFiles(cwd, { 'workflows/emails/welcome.html': '<p>Hi {{firstName}}</p>\n' });
    const back = await cachedRun(cwd, missing.stored);
    expect(back.unchanged).toBe(cold.result.files.length - 1);
    expect(report(back.result)).toEqual(report(await plainRun(cwd)));
    expect(back.stored.has('workflows/h-includes.yaml')).toBe(true);
  });

  it('a file seen under another display path (run from elsewhere) is checked again', async () => {
    const root = project(PROJECT);
    const cold = await cachedRun(root, new Map());
    const cwd = path.join(root, 'workflows');
    const elsewhere = await cachedRun(cwd, cold.stored, { root, defaultDir: '.' });
    expect(elsewhere.unchanged).toBe(0);
    expect(report(elsewhere.result)).toEqual(report(await plainRun(cwd, { defaultDir: '.' })));
    expect(elsewhere.result.diagnostics.every((d) => !d.file.startsWith('workflows/'))).toBe(true);
    // Keyed by path from the root: the same files, now under their new display paths.
    expect([...elsewhere.stored.keys()].sort()).toEqual([...cold.stored.keys()].sort());
    expect(elsewhere.stored.get('workflows/a-valid.yaml')).toMatchObject({ file: 'a-valid.yaml' });
    expect((await cachedRun(cwd, elsewhere.stored, { root, defaultDir: '.' })).unchanged).toBe(
      cold.result.files.length,
    );
  });

  it('files that cannot be read, or are too large, are reported every run and never cached', async () => {
    const cwd = project({
      'workflows/a.yaml': VALID,
      'workflows/big.yaml': `${VALID}# ${'x'.repeat(400)}\n`,
    });
    symlinkSync(path.join(cwd, 'nowhere.yaml'), path.join(cwd, 'workflows/dangling.yaml'));
    const limits = { maxBytes: 400 };
    const cold = await cachedRun(cwd, new Map(), { limits });
    const warm = await cachedRun(cwd, cold.stored, { limits });
    expect([...warm.stored.keys()]).toEqual(['workflows/a.yaml']);
    expect(warm.unchanged).toBe(1);
    expect(warm.result.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      'workflows/big.yaml file-too-large',
      'workflows/dangling.yaml file-unreadable',
    ]);
    expect(report(warm.result)).toEqual(report(await plainRun(cwd, { limits })));
  });

  it('drops the entries of deleted files, and keeps those a narrower run did not look at', async () => {
    const cwd = project(PROJECT);
    const cold = await cachedRun(cwd, new Map());
    const one = await cachedRun(cwd, cold.stored, { paths: ['workflows/a-valid.yaml'] });
    expect(one.unchanged).toBe(1);
    expect(one.changed).toBe(false);
    expect([...one.stored.keys()].sort()).toEqual([...cold.stored.keys()].sort());
    const nested = await cachedRun(cwd, cold.stored, { paths: ['workflows/nested'] });
    expect(nested.unchanged).toBe(2);
    expect(nested.stored.size).toBe(cold.stored.size);
    unlinkSync(path.join(cwd, 'workflows/b-copy.yaml'));
    const after = await cachedRun(cwd, cold.stored);
    expect(after.changed).toBe(true);
    expect(after.stored.has('workflows/b-copy.yaml')).toBe(false);
    expect(after.stored.size).toBe(cold.stored.size - 1);
  });
});

describe('entryKey', () => {
  it('is the path from the root with `/`, taking the shortcut only when it holds', () => {
    const root = path.resolve('/project');
    const cases: Array<[file: string, cwd: string, key: string]> = [
      ['workflows/a.yaml', root, 'workflows/a.yaml'],
      ['a.yaml', path.join(root, 'workflows'), 'workflows/a.yaml'],
      ['../other/a.yaml', root, '../other/a.yaml'],
      ['../workflows/a.yaml', path.join(root, 'sub'), 'workflows/a.yaml'],
      ['..a/b.yaml', root, '..a/b.yaml'],
      [path.resolve('/elsewhere/a.yaml'), root, '../elsewhere/a.yaml'],
    ];
    for (const [file, cwd, key] of cases) expect(entryKey(file, cwd, root), `${file} from ${cwd}`).toBe(key);
  });
});
