import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import type { Plugin } from 'unified';
import { engine } from 'unified-engine';
import { compareText } from '../../src/text.js';

/** One broken link: the page, its line and column, and remark-validate-links' message. */
export interface BrokenLink {
  page: string;
  line: number;
  column: number;
  message: string;
}

/**
 * The relative links and `#anchors` of `pages` (paths relative to `root`) that lead nowhere: a file or folder that
 * does not exist, a heading slug (as GitHub makes them, github-slugger) that no heading of the page has. Links to
 * files of `repository` on GitHub count as relative ones. Offline; external URLs are not checked.
 * remark-validate-links checks links across pages only when it sees them in one run, hence unified-engine.
 */
export function findBrokenLinks(
  root: string,
  pages: readonly string[],
  repository = 'https://github.com/wfsync/wfsync',
): Promise<BrokenLink[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: remark,
        // As an engine plugin (not `.use`), so it is handed the file set and checks links between the pages. The
        // engine's list is typed for plugins of any tree; this one takes remark's.
        plugins: [[remarkValidateLinks as unknown as Plugin<[unknown]>, { repository, root }]],
        cwd: root,
        files: [...pages],
        detectConfig: false,
        detectIgnore: false,
        out: false,
        quiet: true,
        silent: true,
        reporter: () => '',
      },
      (error, _code, context) => {
        if (error) return reject(error);
        const broken = (context?.files ?? []).flatMap((file) =>
          file.messages.map((message) => ({
            page: file.path.replaceAll('\\', '/'),
            line: message.line ?? 0,
            column: message.column ?? 0,
            message: message.reason,
          })),
        );
        resolve(broken.sort((a, b) => compareText(a.page, b.page) || a.line - b.line || a.column - b.column));
      },
    );
  });
}
