import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The pages at the top of the repository that the docs tests read, besides docs/. */
const TOP_PAGES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md'];

/**
 * Every page of the docs, relative to `root` with `/` separators: the top pages that exist, then docs/**\/*.md in
 * path order. The README test runs their examples; the link checker reads their links.
 */
export function listDocPages(root: string = REPO_ROOT): string[] {
  const top = readdirSync(root).filter((name) => TOP_PAGES.includes(name));
  const docs = readdirSync(`${root}/docs`, { recursive: true, encoding: 'utf8' })
    .map((path) => path.replaceAll('\\', '/'))
    .filter((path) => path.endsWith('.md'))
    .map((path) => `docs/${path}`)
    .sort();
  return [...TOP_PAGES.filter((page) => top.includes(page)), ...docs];
}
