import { createRequire } from 'node:module';
import { marked } from 'marked';
import type { Page } from 'puppeteer-core';

/**
 * A pull-request comment as GitHub roughly shows it, for the picture in the docs: the Markdown rendered by `marked`
 * (GitHub-flavoured: tables, fences; raw `<details>`, `<summary>`, `<code>` and hidden `<!-- … -->` markers kept as
 * GitHub keeps them) inside a comment box styled after GitHub's light theme by the stylesheet below (ours). A Mermaid
 * fence becomes a diagram as on GitHub, drawn by Mermaid itself (@mermaid-js/tiny, one file, no dependencies) when
 * `drawMermaid` is called: only what is open, since Mermaid measures its labels on the page.
 */
const STYLE = `
* { box-sizing: border-box; }
body { margin: 0; padding: 16px; background: #ffffff; color: #1f2328;
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.comment { border: 1px solid #d0d7de; border-radius: 6px; max-width: 920px; }
.comment-header { background: #f6f8fa; border-bottom: 1px solid #d0d7de; border-radius: 6px 6px 0 0;
  padding: 8px 16px; color: #59636e; }
.comment-header strong { color: #1f2328; }
.markdown-body { padding: 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0 !important; }
.markdown-body > :last-child { margin-bottom: 0 !important; }
h1, h2, h3, h4 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h1 { font-size: 2em; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0b3; }
h2 { font-size: 1.5em; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0b3; }
h3 { font-size: 1.25em; } h4 { font-size: 1em; }
p, ul, ol, table, pre, details, blockquote { margin: 0 0 16px; }
ul, ol { padding-left: 2em; }
a { color: #0969da; text-decoration: none; }
code { font: 85%/1.45 ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  background: #818b981f; border-radius: 6px; padding: .2em .4em; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; }
pre code { background: transparent; padding: 0; font-size: 85%; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
summary { cursor: pointer; }
details > :not(summary) { margin-left: 0; }
blockquote { padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
hr { height: .25em; background: #d1d9e0; border: 0; margin: 24px 0; }
`;

/** A standalone HTML page of the comment `markdown`, posted by `author`. */
export function githubCommentPage(markdown: string, author: string): string {
  const body = marked
    .parse(markdown, { gfm: true, async: false })
    .replace(
      /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
      '<pre class="mermaid">$1</pre>',
    );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pull-request comment</title><style>${STYLE}</style></head>
<body><div class="comment"><div class="comment-header"><strong>${author}</strong> commented</div>
<div class="markdown-body">${body}</div></div></body></html>`;
}

/** Mermaid's browser build, as the package ships it. */
const MERMAID = createRequire(import.meta.url).resolve('@mermaid-js/tiny');

/** Draws the Mermaid blocks under `selector` (each must be open) as diagrams, as GitHub does; resolves when drawn. */
export async function drawMermaid(page: Page, selector: string): Promise<void> {
  await page.addScriptTag({ path: MERMAID });
  await page.evaluate(async (where: string) => {
    // biome-ignore lint/suspicious/noExplicitAny: the browser's globals, loosely typed on this side
    const { mermaid, document } = globalThis as any;
    await document.fonts.ready;
    // Fixed ids and a fixed seed for the shapes' curves (Mermaid draws them with random control points otherwise).
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'default',
      deterministicIds: true,
      handDrawnSeed: 1,
    });
    await mermaid.run({ nodes: [...document.querySelectorAll(`${where} pre.mermaid`)] });
  }, selector);
}
