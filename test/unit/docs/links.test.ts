import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROMOTING_GUIDE } from '../../../src/scaffold/config-file.js';
import { findBrokenLinks } from '../../helpers/doc-links.js';
import { listDocPages, REPO_ROOT } from '../../helpers/doc-pages.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function makeDocs(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wfsync-links-'));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the docs: relative links and anchors', () => {
  it('every relative link and #anchor in README, CONTRIBUTING, SECURITY and docs/ leads somewhere', async () => {
    const { repository } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    const url = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const broken = await findBrokenLinks(REPO_ROOT, listDocPages(), url);
    expect(broken.map((b) => `${b.page}:${b.line}:${b.column}: ${b.message}`)).toEqual([]);
  }, 60_000);
});

describe('README.md, the page the npm package ships alone', () => {
  it('links the other pages and files by URL, so they work from the package page too', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    // Inline links, `[text](target)`, and reference definitions, `[label]: target`.
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)|^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)].map(
      (match) => (match[1] ?? match[2])!,
    );
    expect(targets.length).toBeGreaterThan(10);
    // The link checker above follows these as relative links: a page that moves or a heading that changes fails it.
    expect(targets.filter((t) => !t.startsWith('https://') && !t.startsWith('#'))).toEqual([]);
  });
});

describe("the docs URLs the program writes into users' files", () => {
  it('name a page of this repository that exists (the CI files init writes point at the promoting guide)', () => {
    const { repository } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    const prefix = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;
    expect(PROMOTING_GUIDE.startsWith(prefix)).toBe(true);
    expect(existsSync(join(REPO_ROOT, PROMOTING_GUIDE.slice(prefix.length)))).toBe(true);
  });
});

describe('findBrokenLinks', () => {
  it('reports a missing file, a heading no page has, here or in another page; passes what exists', async () => {
    const root = makeDocs({
      'README.md': [
        '# Tool',
        '',
        '## Exit codes',
        '',
        '### `tool plan [paths…]`',
        '',
        'See [codes](#exit-codes), [plan](#tool-plan-paths), [the schema](schemas/plan.schema.json),',
        '[a folder](docs/), [a page](docs/guide.md#set-up-ci) and [upstream](https://example.com/x#nothing),',
        '[here on GitHub](https://github.com/wfsync/wfsync/blob/main/docs/guide.md#guide).',
        '',
        'Broken: [gone](#exit-code), [no file](schemas/gone.json), [no heading there](docs/guide.md#set-up),',
        '[not on GitHub](https://github.com/wfsync/wfsync/blob/main/docs/gone.md).',
        '',
      ].join('\n'),
      'docs/guide.md':
        '# Guide\n\n## Set up CI\n\nBack to [the README](../README.md#tool) and [nowhere](../CONTRIBUTING.md).\n',
      'schemas/plan.schema.json': '{}\n',
    });
    const broken = await findBrokenLinks(root, ['README.md', 'docs/guide.md']);
    expect(broken.map((b) => `${b.page}:${b.line}:${b.column}: ${b.message}`)).toEqual([
      'README.md:11:9: Cannot find heading for `#exit-code`; did you mean `exit-codes`',
      'README.md:11:29: Cannot find file `schemas/gone.json`',
      'README.md:11:59: Cannot find heading for `#set-up` in `docs/guide.md`',
      'README.md:12:1: Cannot find file `docs/gone.md`; did you mean `docs/guide.md`',
      'docs/guide.md:5:45: Cannot find file `../CONTRIBUTING.md`',
    ]);
  });
});

describe('docs/README.md, the index', () => {
  it('links every page under docs/', () => {
    const index = readFileSync(join(REPO_ROOT, 'docs/README.md'), 'utf8');
    const linked = new Set(
      [...index.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) =>
        posix.normalize(posix.join('docs', match[1]!)),
      ),
    );
    const pages = listDocPages().filter((page) => page.startsWith('docs/') && page !== 'docs/README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
