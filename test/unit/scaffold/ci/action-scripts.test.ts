import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { prCommentMarker } from '../../../../src/report/plan/markdown.js';
import { runs } from '../../../helpers/fc-runs.js';

/**
 * The action's scripts (action/*.mjs: plain JavaScript the action runs from its checkout, node built-ins only),
 * imported directly. The specifiers are built at run time: the scripts carry no type declarations.
 */
const ACTION = fileURLToPath(new URL('../../../../action/', import.meta.url));
const load = (name: string) => import(pathToFileURL(`${ACTION}${name}`).href);
const { splitArgs } = await load('args.mjs');
const { commentMarker, upsertComment } = await load('comment.mjs');

/** A shell's single quoting of one word ('it'\''s'). */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

describe('splitArgs', () => {
  it('reads back any words quoted as a shell would quote them, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { maxLength: 6 }), (words) => {
        expect(splitArgs(words.map(quote).join(' '))).toEqual(words);
      }),
      { numRuns: runs(300) },
    );
  });

  it('quotes, backslashes and whitespace group; nothing is expanded', () => {
    expect(splitArgs(` --only  "order-*"\n-q a\\ b "x\\"y" '$HOME' $(id) ""`)).toEqual([
      '--only',
      'order-*',
      '-q',
      'a b',
      'x"y',
      '$HOME',
      '$(id)',
      '',
    ]);
    expect(() => splitArgs(`'open`)).toThrow('args: a single quote is not closed');
  });
});

describe('the comment marker', () => {
  it("is wfsync's own target marker when the body carries none (a plan that did not print)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (target) => {
        expect(commentMarker('', target)).toBe(prCommentMarker(target));
      }),
      { numRuns: runs(300) },
    );
    expect(commentMarker('', '')).toBe('<!-- wfsync-plan -->');
  });

  it("is the body's own target marker when it carries one", () => {
    const body = `<!-- wfsync-plan -->\n${prCommentMarker('a b-->')}\n## plan\n`;
    expect(commentMarker(body, 'other')).toBe(prCommentMarker('a b-->'));
  });
});

describe('the comment upsert', () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  async function server(handler: Parameters<typeof createServer>[1]) {
    const s = createServer(handler);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    closers.push(() => s.close());
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    return `http://127.0.0.1:${address.port}`;
  }

  it('never follows a next page to another host: the token stays with the API', async () => {
    const elsewhere: string[] = [];
    const other = await server((req, res) => {
      elsewhere.push(String(req.headers.authorization));
      res.end('[]');
    });
    const api = await server((req, res) => {
      if (req.url === '/user') return void res.writeHead(403).end('{}');
      res.writeHead(200, { link: `<${other}/list?page=2>; rel="next"`, 'content-type': 'application/json' });
      res.end('[]');
    });
    const upsert = upsertComment({
      apiUrl: api,
      token: 't0ken',
      repository: 'acme/notifications',
      issueNumber: 7,
      marker: prCommentMarker('dev'),
      body: 'x',
      createWhenNew: true,
    });
    await expect(upsert).rejects.toThrow('the next page is on another host');
    expect(elsewhere).toEqual([]);
  });
});
