import { cpSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { readDefinitionFile } from '../../../src/definitions/read.js';
import { type FastRead, readDefinitionFileFast } from '../../../src/definitions/read-fast.js';
import type { ParseResult } from '../../../src/definitions/types.js';
import { useTempDir } from './helpers.js';

const INCLUDES_PROJECT = fileURLToPath(new URL('../../fixtures/includes/project/', import.meta.url));
const tempDir = useTempDir();
const limits = { ...DEFAULT_LOAD_LIMITS };

/** Reads `file` under `cwd` both ways. */
function readBoth(cwd: string, file: string) {
  const absolute = path.join(cwd, file);
  return {
    fast: readDefinitionFileFast(absolute, file, limits),
    reference: readDefinitionFile(absolute, file, limits),
  };
}

/** The fast read fell back to readDefinitionFile's result (functions such as locate are compared by what they do). */
function expectReference(fast: FastRead, reference: ParseResult): void {
  if (!('result' in fast)) throw new Error('the fast path should have left this file to the reference');
  expect(fast.result.diagnostics).toEqual(reference.diagnostics);
  expect(fast.result.text).toBe(reference.text);
  expect(fast.result.definition?.value).toEqual(reference.definition?.value);
  expect(fast.result.definition?.locate('/b')).toEqual(reference.definition?.locate('/b'));
}

describe('readDefinitionFileFast', () => {
  it('gives a fast definition for a clean file, and the reference result from the same bytes on demand', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'w.yaml'), 'name: a\nsteps: []\n');
    const { fast, reference } = readBoth(cwd, 'w.yaml');
    if (!('definition' in fast)) throw new Error('the fast path should take this file');
    expect(fast.definition.value).toEqual(reference.definition?.value);
    expect(fast.definition.text).toBe(reference.definition?.text);
    // The file changes on disk: `slow` still reads the bytes the fast path read, so both halves agree.
    await writeFile(path.join(cwd, 'w.yaml'), 'name: b\n');
    const slow = fast.slow();
    expect(slow.diagnostics).toEqual([]);
    expect(slow.definition?.value).toEqual({ name: 'a', steps: [] });
  });

  it('gives the reference result outright when the fast path cannot vouch for the file', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'anchors.yaml'), 'a: &x 1\nb: *x\n');
    await writeFile(path.join(cwd, 'broken.yaml'), 'a: [b\n');
    for (const file of ['anchors.yaml', 'broken.yaml']) {
      const { fast, reference } = readBoth(cwd, file);
      expectReference(fast, reference);
    }
  });

  it('reports a file it cannot read exactly as readDefinitionFile does', async () => {
    const cwd = await tempDir();
    const { fast, reference } = readBoth(cwd, 'missing.yaml');
    expectReference(fast, reference);
    expect(reference.diagnostics.map((d) => d.code)).toEqual(['file-unreadable']);
  });

  it('resolves file references on the fast path too', async () => {
    const cwd = await tempDir();
    cpSync(INCLUDES_PROJECT, cwd, { recursive: true });
    const { fast, reference } = readBoth(cwd, 'workflows/order-shipped.yaml');
    if (!('definition' in fast)) throw new Error('the fast path should take this file');
    expect(reference.diagnostics).toEqual([]);
    expect(fast.definition.value).toEqual(reference.definition?.value);
    expect(JSON.stringify(fast.definition.value)).not.toContain('"file"');
  });

  it('leaves a file whose reference cannot be resolved to the reference path', async () => {
    const cwd = await tempDir();
    cpSync(INCLUDES_PROJECT, cwd, { recursive: true });
    const file = 'workflows/missing-include.yaml';
    await writeFile(
      path.join(cwd, file),
      'name: a\nsteps:\n  - name: b\n    template: {type: in_app, content: {file: ./nope.html}}\n',
    );
    const { fast, reference } = readBoth(cwd, file);
    expect(reference.diagnostics.length).toBeGreaterThan(0);
    expectReference(fast, reference);
  });
});
