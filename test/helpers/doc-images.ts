import { dirname, posix } from 'node:path';

/** A picture a docs page shows. */
export interface ImageRef {
  page: string;
  line: number;
  alt: string;
  /** The picture's path from the repository root, `/` separated. */
  path: string;
}

/**
 * A page's pictures: Markdown images (`![alt](path)`) and HTML `<img src>` with a relative path, outside code blocks,
 * each path resolved from the page to the repository root (test/unit/docs/images.test.ts).
 */
export function findImageRefs(page: string, text: string): ImageRef[] {
  const refs: ImageRef[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const found = [
      ...[...line.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({ alt: m[1]!, src: m[2]! })),
      ...[...line.matchAll(/<img\b[^>]*>/g)].map((m) => ({
        alt: /\balt="([^"]*)"/.exec(m[0])?.[1] ?? '',
        src: /\bsrc="([^"]*)"/.exec(m[0])?.[1] ?? '',
      })),
    ];
    for (const { alt, src } of found) {
      if (/^[a-z]+:/i.test(src) || src === '') continue;
      const path = posix.normalize(posix.join(dirname(page).replaceAll('\\', '/'), src.split('#')[0]!));
      refs.push({ page, line: i + 1, alt, path });
    }
  });
  return refs;
}
