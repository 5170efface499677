import { cpSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDefinitionFast } from '../../../src/definitions/fast-parse.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { loadDefinitionBytes, readDefinition, readDefinitionBytes } from '../../../src/definitions/read.js';
import type { ParseResult } from '../../../src/definitions/types.js';
import { createFsBoundary } from '../../../src/fs-boundary.js';
import { useTempDir } from './helpers.js';

const INCLUDES_PROJECT = fileURLToPath(new URL('../../fixtures/includes/project/', import.meta.url));
const tempDir = useTempDir();
const limits = { ...DEFAULT_LOAD_LIMITS };

/** Reads `file` under `cwd` both ways: readDefinition (the fast path first) and the reference path alone. */
function readBoth(cwd: string, file: string) {
  const source = { absolute: path.join(cwd, file), file, limits, boundary: createFsBoundary(cwd) };
  const bytes = readDefinitionBytes(source);
  return {
    read: readDefinition(source),
    reference: ('bytes' in bytes ? loadDefinitionBytes(bytes.bytes, source) : bytes) as ParseResult,
  };
}

/** Whether the fast path answers for the file (readDefinition then gives its definition). */
async function fastPathTakes(cwd: string, file: string): Promise<boolean> {
  return parseDefinitionFast(file, await readFile(path.join(cwd, file)), limits) !== undefined;
}

/** readDefinition gave the reference result (functions such as locate are compared by what they do). */
function expectReference(read: ParseResult, reference: ParseResult): void {
  expect(read.diagnostics).toEqual(reference.diagnostics);
  expect(read.text).toBe(reference.text);
  expect(read.definition?.value).toEqual(reference.definition?.value);
  expect(read.definition?.text).toBe(reference.definition?.text);
  expect(read.definition?.locate('/b')).toEqual(reference.definition?.locate('/b'));
  expect(Object.keys(read).sort()).toEqual(Object.keys(reference).sort());
}

describe('readDefinition', () => {
  it('gives a clean file from the fast path, exactly as the reference path reads it', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'w.yaml'), 'name: a\nsteps: []\n');
    expect(await fastPathTakes(cwd, 'w.yaml')).toBe(true);
    const { read, reference } = readBoth(cwd, 'w.yaml');
    expectReference(read, reference);
    expect(read.definition?.value).toEqual({ name: 'a', steps: [] });
  });

  it('gives the reference result when the fast path cannot vouch for the file', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'anchors.yaml'), 'a: &x 1\nb: *x\n');
    await writeFile(path.join(cwd, 'broken.yaml'), 'a: [b\n');
    for (const file of ['anchors.yaml', 'broken.yaml']) {
      expect(await fastPathTakes(cwd, file)).toBe(false);
      const { read, reference } = readBoth(cwd, file);
      expectReference(read, reference);
    }
  });

  it('reports a file it cannot read', async () => {
    const cwd = await tempDir();
    const { read, reference } = readBoth(cwd, 'missing.yaml');
    expectReference(read, reference);
    expect(reference.diagnostics.map((d) => d.code)).toEqual(['file-unreadable']);
  });

  it('resolves file references on the fast path too', async () => {
    const cwd = await tempDir();
    cpSync(INCLUDES_PROJECT, cwd, { recursive: true });
    const file = 'workflows/order-shipped.yaml';
    expect(await fastPathTakes(cwd, file)).toBe(true);
    const { read, reference } = readBoth(cwd, file);
    expect(reference.diagnostics).toEqual([]);
    expectReference(read, reference);
    expect(JSON.stringify(read.definition?.value)).not.toContain('"file"');
  });

  it('leaves a file whose reference cannot be resolved to the reference path', async () => {
    const cwd = await tempDir();
    cpSync(INCLUDES_PROJECT, cwd, { recursive: true });
    const file = 'workflows/missing-include.yaml';
    await writeFile(
      path.join(cwd, file),
      'name: a\nsteps:\n  - name: b\n    template: {type: in_app, content: {file: ./nope.html}}\n',
    );
    expect(await fastPathTakes(cwd, file)).toBe(true);
    const { read, reference } = readBoth(cwd, file);
    expect(reference.diagnostics.length).toBeGreaterThan(0);
    expectReference(read, reference);
  });
});
