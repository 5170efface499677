import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../../..');
const RELATIVE_IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+)\.js'/g;

/**
 * Transpile `entries` (repo-relative .ts paths) and everything they import into `outDir`, as plain ESM, so a
 * child process can run the very code under test: real cross-process tests without depending on dist/ (which
 * other work rebuilds) or a TypeScript loader in the child.
 */
export async function buildForChild(entries: string[], outDir: string): Promise<void> {
  const queue = entries.map((e) => resolve(ROOT, e));
  const done = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (done.has(file)) continue;
    done.add(file);
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      queue.push(resolve(dirname(file), `${match[1]}.ts`));
    }
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    const out = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, outputText);
  }
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
}
