import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import type { LoadedDefinition, ParseResult } from '../../../src/definitions/types.js';
import type { Diagnostic } from '../../../src/diagnostic.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/definitions/', import.meta.url));

const encoder = new TextEncoder();

export function parseText(text: string, file = 'workflow.yaml'): ParseResult {
  return parseDefinition(file, encoder.encode(text));
}

/** The definition of a text that must parse cleanly. */
export function load(text: string): LoadedDefinition {
  const result = parseText(text);
  expect(result.diagnostics).toEqual([]);
  if (!result.definition) throw new Error('no definition');
  return result.definition;
}

/** `code@line:column` for compact assertions on where diagnostics point. */
export function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`);
}

/** A fresh temp directory per test, removed afterwards. */
export function useTempDir(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wfsync-definitions-'));
    made.push(dir);
    return dir;
  };
}
