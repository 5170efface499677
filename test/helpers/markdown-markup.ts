import { expect } from 'vitest';

/**
 * What markdown built from outside text must hold to, shared by the security tests of the plan comment, the
 * hostile-field renderers and the write paths: its markup (the lines outside fenced blocks, code spans taken out)
 * carries nothing a reader's platform would act on.
 */

/** Control, C1 and bidi characters: never in a comment, a log line or a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the helper
export const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A line without its code spans (a run of backticks to the next run of the same length): code, never markup. */
export function withoutCodeSpans(line: string): string {
  return line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

/** The lines of `markdown` outside any fenced block, code spans taken out; every fence closed. */
export function markupLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const run = /^(`{3,}|~{3,})/.exec(line.trimStart())?.[1];
    if (fence === undefined) {
      if (run !== undefined) fence = run;
      else out.push(withoutCodeSpans(line));
    } else if (
      run !== undefined &&
      run[0] === fence[0] &&
      run.length >= fence.length &&
      line.trim() === run
    ) {
      fence = undefined;
    }
  }
  expect(fence, 'every fence is closed').toBeUndefined();
  return out;
}

/**
 * Markdown with outside text in it: our own `markers` comment markers once each, then nothing that pings, links,
 * loads, hides or runs (GitLab takes a line starting with `/` for a quick action). Returns the markup for the
 * caller's own checks.
 */
export function expectMarkupInert(markdown: string, markers: number): string {
  expect(markdown.split('<!--')).toHaveLength(markers + 1);
  expect(markdown).not.toMatch(/^\/[a-z]/m);
  expect(markdown).not.toMatch(/(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])/);
  expect(markdown).not.toMatch(/(?<!&)#\d|GH-\d/);
  expect(markdown).not.toContain('\x1b');
  expect(markdown).not.toMatch(UNSAFE);
  const markup = markupLines(markdown).join('\n');
  expect(markup).not.toMatch(/<img|(?<!\\)\]\(https:/);
  expect(markup.split('</details>').length).toBe(markup.split('<details').length);
  return markup;
}
