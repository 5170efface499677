import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PURE = ['derive', 'validate', 'plan', 'pull', 'report'];

/**
 * What a pure module may import from Node or the network anyway (docs/ARCHITECTURE.md): report's one writer, and
 * `createRequire`, which loads a pure library on first use instead of at start-up.
 */
const ALLOWED: Record<string, readonly string[]> = {
  'report/write-output.ts': ['node:fs/promises', 'node:path'],
  'derive/first-use.ts': ['node:module'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('pure areas (derive, validate, plan, pull, report)', () => {
  it('import no node:* module, undici or the clock, but for the documented exceptions', () => {
    const found: string[] = [];
    for (const area of PURE) {
      for (const file of sources(path.join(SRC, area))) {
        const relative = path.relative(SRC, file).split(path.sep).join('/');
        const text = readFileSync(file, 'utf8');
        for (const [, specifier] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
          if (!specifier?.startsWith('node:') && specifier !== 'undici') continue;
          if (ALLOWED[relative]?.includes(specifier)) continue;
          found.push(`${relative} imports ${specifier}`);
        }
        if (/\bDate\.now\(|new Date\(\)|Math\.random\(/.test(text))
          found.push(`${relative} reads the clock or randomness`);
      }
    }
    expect(found).toEqual([]);
  });
});
