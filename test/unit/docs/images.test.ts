import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImageRefs } from '../../helpers/doc-images.js';
import { listDocPages, REPO_ROOT } from '../../helpers/doc-pages.js';

/**
 * The pictures in the docs (docs/images/, taken by the Chromium tests: test/e2e/doc-images.ts): every picture a page
 * shows exists and says what it shows, and every picture there is shown by some page.
 */
const IMAGES = 'docs/images';

describe('the pictures in the docs', () => {
  const refs = listDocPages().flatMap((page) =>
    findImageRefs(page, readFileSync(join(REPO_ROOT, page), 'utf8')),
  );

  it('every picture a page shows exists and has alt text that says what it shows', () => {
    expect(refs.length).toBeGreaterThan(0);
    const missing = refs.filter((r) => !existsSync(join(REPO_ROOT, r.path)));
    expect(missing.map((r) => `${r.page}:${r.line}: ${r.path} does not exist`)).toEqual([]);
    const unsaid = refs.filter((r) => r.alt.trim().split(/\s+/).length < 4);
    expect(unsaid.map((r) => `${r.page}:${r.line}: ${r.path} needs alt text saying what it shows`)).toEqual(
      [],
    );
  });

  it(`every picture in ${IMAGES}/ is shown by some page (npm run docs:images writes them)`, () => {
    const shown = new Set(refs.map((r) => r.path));
    const unused = readdirSync(join(REPO_ROOT, IMAGES))
      .map((name) => `${IMAGES}/${name}`)
      .filter((path) => !shown.has(path));
    expect(unused.map((path) => `${path} is shown by no page`)).toEqual([]);
  });
});

describe('findImageRefs', () => {
  it('finds markdown and HTML images relative to the page, skips code blocks and URLs', () => {
    const text = [
      '![The page, with its list](../images/a.png)',
      '<img src="../images/b.png" alt="B, the comment as GitHub shows it">',
      '```md',
      '![in a block](../images/c.png)',
      '```',
      '![remote one](https://example.com/d.png) and a [link](../images/e.png)',
    ].join('\n');
    expect(findImageRefs('docs/commands/x.md', text)).toEqual([
      { page: 'docs/commands/x.md', line: 1, alt: 'The page, with its list', path: 'docs/images/a.png' },
      {
        page: 'docs/commands/x.md',
        line: 2,
        alt: 'B, the comment as GitHub shows it',
        path: 'docs/images/b.png',
      },
    ]);
    expect(findImageRefs('README.md', '![x y z w](docs/images/a.png)')[0]!.path).toBe('docs/images/a.png');
  });
});
