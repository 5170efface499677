import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PURE = ['derive', 'render', 'validate', 'plan', 'pull', 'report', 'types'];

/**
 * What a pure module may import from Node or the network anyway (docs/ARCHITECTURE.md): report's one writer, and
 * `createRequire`, which loads a pure library on first use instead of at start-up.
 */
const ALLOWED: Record<string, readonly string[]> = {
  'report/write-output.ts': ['node:fs/promises'],
  'derive/first-use.ts': ['node:module'],
};

/**
 * The folders of src/, lowest first: a file imports only from its own folder or a lower one (root files are the
 * lowest), and no file imports itself back through others, type-only imports included.
 */
const LAYERS = [
  '',
  'generated',
  'derive',
  'render',
  'definitions',
  'validate',
  'config',
  'state',
  'cache',
  'check',
  'git',
  'emulator',
  'remote',
  'plan',
  'pull',
  'apply',
  'report',
  'types',
  'scaffold',
  'ci',
  'api',
  'doctor',
  'preview',
  'cli',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('pure areas (derive, render, validate, plan, pull, report, types)', () => {
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

/** src-relative file → the src files it imports (static, type-only, re-exports and `import()`). */
function importGraph(): Map<string, string[]> {
  const files = sources(SRC).map((file) => path.relative(SRC, file).split(path.sep).join('/'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm),
      ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
    ].map(([, specifier]) => specifier!);
    const targets = specifiers.map((s) =>
      path.posix.join(path.posix.dirname(file), s).replace(/\.js$/, '.ts'),
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports between files of src/', () => {
  it('form no circle and never go to a higher folder (LAYERS)', () => {
    const graph = importGraph();
    const folder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');
    const layer = (file: string) => LAYERS.indexOf(folder(file));
    const found = circles(graph).map((component) => `circle: ${component.join(' ')}`);
    for (const [file, targets] of graph) {
      if (layer(file) < 0) found.push(`${file} is in no layer`);
      for (const target of targets) {
        // The JSON Schemas (the documents' source of truth, beside src/) are data every layer may read.
        if (/^\.\.\/schemas\/[\w-]+\.schema\.json$/.test(target)) continue;
        expect(graph.has(target), `${file} imports ${target}, which does not exist`).toBe(true);
        if (folder(target) === folder(file) || layer(file) < 0) continue;
        if (layer(target) < 0 || layer(target) > layer(file)) found.push(`${file} imports ${target}`);
      }
    }
    expect(found.sort()).toEqual([]);
  });
});
