import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../src/render/engine.js';

// The corpus: each case's expected output (or failure message) is what the service's own code produced (see
// test/fixtures/render-corpus/README.md); wfsync must produce the same bytes.
const dir = path.join(import.meta.dirname, '../../fixtures/render-corpus');

interface Case {
  name: string;
  template: string;
  data: Record<string, unknown>;
  source: string;
  expected: { output: string } | { error: string };
}

const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('render corpus', () => {
  it('has cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });
  for (const file of files) {
    const cases = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Case[];
    describe(file, () => {
      for (const c of cases) {
        it(c.name, () => {
          let actual: { output: string } | { error: string };
          try {
            actual = { output: renderTemplate(c.template, structuredClone(c.data)) };
          } catch (error) {
            actual = { error: error instanceof Error ? error.message : String(error) };
          }
          expect(actual).toEqual(c.expected);
        });
      }
    });
  }
});
