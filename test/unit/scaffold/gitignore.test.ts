import { describe, expect, it } from 'vitest';
import {
  buildGitignoreMerge,
  GITIGNORE_HEADER,
  LOCAL_ONLY_ENTRIES,
} from '../../../src/scaffold/gitignore.js';

const BLOCK = `${[GITIGNORE_HEADER, ...LOCAL_ONLY_ENTRIES].join('\n')}\n`;

describe('buildGitignoreMerge', () => {
  it('no file: the entries under a comment', () => {
    expect(buildGitignoreMerge(undefined)).toEqual({
      status: 'write',
      text: BLOCK,
      added: [...LOCAL_ONLY_ENTRIES],
    });
  });

  it('ignores what only this machine has, never the state of a real target', () => {
    expect(LOCAL_ONLY_ENTRIES).toEqual([
      '.wfsync/local-service.json',
      '.wfsync/state/local.json',
      '.wfsync/cache/',
      '.wfsync/**/*.lock',
      '.wfsync/**/*.lock.takeover',
      '.wfsync/**/*.tmp',
    ]);
    expect(
      LOCAL_ONLY_ENTRIES.some(
        (e) => e.includes('development') || e.includes('production') || e === '.wfsync/state/*.json',
      ),
    ).toBe(false);
  });

  it('appends after one blank line, whatever the file ends with', () => {
    expect(buildGitignoreMerge('node_modules/\n')).toMatchObject({ text: `node_modules/\n\n${BLOCK}` });
    expect(buildGitignoreMerge('node_modules/')).toMatchObject({ text: `node_modules/\n\n${BLOCK}` });
    expect(buildGitignoreMerge('node_modules/\n\n')).toMatchObject({ text: `node_modules/\n\n${BLOCK}` });
    expect(buildGitignoreMerge('')).toMatchObject({ text: BLOCK });
  });

  it('only the missing entries, once: a second merge changes nothing', () => {
    const existing = 'dist/\n/.wfsync/state/local.json\n  .wfsync/**/*.tmp  \n';
    const merge = buildGitignoreMerge(existing);
    if (merge.status !== 'write') throw new Error('expected a write');
    expect(merge.added).toEqual([
      '.wfsync/local-service.json',
      '.wfsync/cache/',
      '.wfsync/**/*.lock',
      '.wfsync/**/*.lock.takeover',
    ]);
    expect(merge.text).toBe(`${existing}\n${[GITIGNORE_HEADER, ...merge.added].join('\n')}\n`);
    expect(buildGitignoreMerge(merge.text)).toEqual({ status: 'unchanged' });
  });

  it('keeps CRLF line endings', () => {
    const merge = buildGitignoreMerge('dist/\r\n');
    if (merge.status !== 'write') throw new Error('expected a write');
    expect(merge.text).toBe(`dist/\r\n\r\n${BLOCK.replace(/\n/g, '\r\n')}`);
    expect(buildGitignoreMerge(merge.text)).toEqual({ status: 'unchanged' });
  });

  it.each(['.wfsync/', '.wfsync', '/.wfsync/', '.wfsync/**'])(
    '%s already ignores the whole directory',
    (rule) => {
      expect(buildGitignoreMerge(`dist/\n${rule}\n`)).toEqual({
        status: 'unchanged',
        note: '.wfsync/ is ignored as a whole',
      });
    },
  );
});
