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
const { buildVerdict, documentVerdict, needingAPerson } = await load('verdict.mjs');

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

describe('the verdict', () => {
  const verdict = (
    command: string,
    code: number,
    extra: { pullRequest?: boolean; who?: string; meaning?: string } = {},
  ) => buildVerdict({ command, code, target: 'dev', pullRequest: false, who: '', ...extra });

  it('0 and 2 pass; 2 outside a pull request is a warning', () => {
    expect(verdict('plan', 0)).toEqual({ lines: ['wfsync plan: nothing to change on dev.'], exitCode: 0 });
    expect(verdict('plan', 2, { pullRequest: true }).exitCode).toBe(0);
    expect(verdict('plan', 2)).toEqual({
      lines: [
        '::warning title=wfsync plan::workflows in the definitions are not on dev yet: the next sync of dev creates them (did the last sync fail?).',
      ],
      exitCode: 0,
    });
    expect(verdict('validate', 0).exitCode).toBe(0);
  });

  it("6 fails naming the workflows the document says need a person, with the document's class for each", () => {
    const document = {
      exitCode: 6,
      needsPerson: ['billing', 'welcome', 'evil\n::warning::x%0A'],
      meaning: 'a workflow needs a person',
      items: [
        { identifier: 'billing', action: 'conflict' },
        { identifier: 'invoice', action: 'create' },
        { identifier: 'welcome', action: 'drifted' },
        { identifier: 'evil\n::warning::x%0A', action: 'orphaned' },
      ],
    };
    const who = needingAPerson(document);
    expect(who).toBe('billing (conflict), welcome (drifted), evil???warning??x?0A (orphaned)');
    expect(verdict('plan', 6, { who })).toEqual({
      lines: [
        `::error title=wfsync plan::a workflow needs a person: ${who}. Sync will not apply this; the plan says what to do for each.`,
      ],
      exitCode: 6,
    });
    expect(verdict('plan', 6).lines[0]).toContain('a workflow needs a person: see the plan.');
  });

  it("reads a sync document's outcomes, and names nothing for a document without a verdict", () => {
    const synced = {
      exitCode: 6,
      needsPerson: ['welcome'],
      meaning: 'a workflow needs a person',
      plan: { items: [{ identifier: 'welcome', action: 'drifted' }] },
      outcomes: [
        { identifier: 'welcome', outcome: 'drifted' },
        { identifier: 'invoice', outcome: 'created' },
      ],
    };
    expect(needingAPerson(synced)).toBe('welcome (drifted)');
    expect(documentVerdict(synced)).toEqual({
      exitCode: 6,
      needsPerson: ['welcome'],
      meaning: 'a workflow needs a person',
    });
    // An older wfsync's document (schemaVersion 2) says no verdict: the relay decides nothing in its place.
    const older = { schemaVersion: 2, items: [{ identifier: 'welcome', action: 'drifted' }] };
    expect(documentVerdict(older)).toBeUndefined();
    expect(needingAPerson(older)).toBe('');
    expect(needingAPerson(undefined)).toBe('');
  });

  it("fails any other code with the document's meaning when it says one, escaped for the annotation line", () => {
    expect(verdict('plan', 1, { meaning: 'an unexpected failure: a%b\nc' })).toEqual({
      lines: [
        '::error title=wfsync plan::wfsync plan failed (exit 1: an unexpected failure: a%25b%0Ac); the output above says why.',
      ],
      exitCode: 1,
    });
    expect(verdict('sync', 4)).toEqual({
      lines: ['::error title=wfsync sync::wfsync sync failed (exit 4); the output above says why.'],
      exitCode: 4,
    });
  });

  it('a code a process cannot end with fails with 1', () => {
    expect(verdict('plan', 300).exitCode).toBe(1);
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
