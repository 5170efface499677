import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { emptyState, normalizeStateBaseUrl, serializeState } from '../../../src/state/format.js';
import { readState } from '../../../src/state/read.js';
import { entry, objectId, pending, state, TARGET, tempDir } from './helpers.js';

async function stateFile(content: unknown): Promise<string> {
  const file = join(await tempDir(), 'prod.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function rejection(promise: Promise<unknown>): Promise<WfsyncError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WfsyncError);
  return error as WfsyncError;
}

describe('readState', () => {
  it('reads a missing file as the empty state of the target, without creating it', async () => {
    const file = join(await tempDir(), 'nested', 'prod.json');
    expect(await readState(file, TARGET)).toEqual(emptyState('prod', 'https://api.example.com'));
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('round-trips what serializeState writes, in a stable, diff-friendly layout', async () => {
    const original = state({
      workflows: { 'b-flow': entry(2, { origin: 'adopted' }), 'a-flow': entry(1, { file: undefined }) },
      pending: { 'c-flow': pending('c-flow') },
    });
    const text = serializeState(original);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "workflows": {\n    "a-flow": {\n      "id": ');
    expect(text.indexOf('"a-flow"')).toBeLessThan(text.indexOf('"b-flow"'));
    const read = await readState(await stateFile(text), TARGET);
    expect(read).toEqual(original);
    expect(serializeState(read)).toBe(text);
  });

  it('keeps an identifier such as __proto__ as data', async () => {
    const text = `{"version":1,"target":"prod","baseUrl":"https://api.example.com","workflows":{"__proto__":${JSON.stringify(entry(1))}},"pending":{}}`;
    const read = await readState(await stateFile(text), TARGET);
    expect(Object.keys(read.workflows)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(read.workflows)).toBe(Object.prototype);
    expect(serializeState(read)).toContain('"__proto__": {');
  });

  it('accepts a byte-order mark a Windows editor added', async () => {
    const file = await stateFile(`\uFEFF${serializeState(state({ workflows: { a: entry(1) } }))}`);
    expect((await readState(file, TARGET)).workflows.a).toEqual(entry(1));
  });

  it.each([
    ['not JSON', '{"version": 1,', /is not valid JSON/],
    [
      'JSON nested 100,000 deep',
      `{"version":1,"workflows":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      /it is nested deeper than 128 levels/,
    ],
    ['an empty file', '', /it is empty/],
    ['an array', [], /expected a JSON object/],
    ['no version', { ...state(), version: undefined }, /"version" must be 1/],
    [
      'a broken id',
      state({ workflows: { a: entry(1, { id: 'ABC' }) } }),
      /workflows\["a"\]\.id must be a 24/,
    ],
    ['an upper-case id', state({ workflows: { a: entry(1, { id: 'A'.repeat(24) }) } }), /\.id must be/],
    [
      'a short hash',
      state({ workflows: { a: entry(1, { hash: 'sha256:abc' }) } }),
      /\.hash must be "sha256:"/,
    ],
    [
      'a hash of another kind',
      state({ workflows: { a: entry(1, { hash: `md5:${'0'.repeat(64)}` }) } }),
      /hash/,
    ],
    [
      'an unknown origin',
      { ...state(), workflows: { a: { ...entry(1), origin: 'magic' } } },
      /\.origin must be/,
    ],
    ['a bad timestamp', state({ workflows: { a: entry(1, { recordedAt: 'yesterday' }) } }), /recordedAt/],
    ['workflows as a list', { ...state(), workflows: [] }, /"workflows" must be an object/],
    ['no pending', { ...state(), pending: undefined }, /"pending" must be an object/],
    ['a journal under the wrong key', state({ pending: { b: pending('a') } }), /pending\["b"\]\.identifier/],
    [
      'a journal without lookups',
      state({ pending: { a: pending('a', { lookupIdentifiers: [''] }) } }),
      /lookup/,
    ],
    [
      'a journal without a key',
      state({ pending: { a: pending('a', { idempotencyKey: '' }) } }),
      /idempotency/,
    ],
  ])(
    'refuses %s, naming the file and how to rebuild it, and leaves it alone',
    async (_what, content, pattern) => {
      const file = await stateFile(content);
      const before = await readFile(file, 'utf8');
      const error = await rejection(readState(file, TARGET));
      expect(error.message).toMatch(pattern);
      expect(error.message).toContain(`the state file ${file} is corrupted`);
      expect(error.message).toContain('run `wfsync state rebuild` to rebuild it from the service');
      expect(error.exitCode).toBe(ExitCode.Failure);
      expect(await readFile(file, 'utf8')).toBe(before);
    },
  );

  it('asks for an upgrade, not a rebuild, when a newer wfsync wrote the file', async () => {
    const error = await rejection(readState(await stateFile({ ...state(), version: 2 }), TARGET));
    expect(error.message).toMatch(
      /written by a newer wfsync \(format version 2; this wfsync reads version 1\)/,
    );
    expect(error.message).not.toContain('rebuild');
  });

  it('refuses the state file of another target with exit 3, pointing at --target and --state', async () => {
    const file = await stateFile(state({ target: 'staging', baseUrl: 'https://staging.example.com' }));
    const error = await rejection(readState(file, TARGET));
    expect(error.exitCode).toBe(ExitCode.Invalid);
    expect(error.message).toBe(
      `the state file ${file} belongs to target "staging" (https://staging.example.com), not to target "prod" ` +
        '(https://api.example.com): sync target "staging" with --target, or give target "prod" its own state ' +
        'file with --state (or the target\'s "state" setting)',
    );
  });

  it('refuses a state file of the same target name on another service with exit 3', async () => {
    const file = await stateFile(state({ baseUrl: 'https://eu.example.com' }));
    const error = await rejection(readState(file, TARGET));
    expect(error.exitCode).toBe(ExitCode.Invalid);
    expect(error.message).toContain(
      'records workflows of https://eu.example.com, but target "prod" now points',
    );
    expect(error.message).toContain('--state');
  });

  it('treats spellings of the same base URL as the same service', async () => {
    const file = await stateFile(state({ workflows: { a: entry(1) } }));
    for (const baseUrl of [
      'https://api.example.com/',
      'https://API.example.com/v1/',
      ' https://api.example.com ',
    ]) {
      expect((await readState(file, { target: 'prod', baseUrl })).workflows.a?.id).toBe(objectId(1));
    }
  });

  it('names the file when it cannot be read at all', async () => {
    const dir = await tempDir();
    const error = await rejection(readState(dir, TARGET));
    expect(error.message).toMatch(new RegExp(`^cannot read the state file ${dir}: is a directory \\(EISDIR`));
  });
});

describe('normalizeStateBaseUrl', () => {
  it('never keeps credentials, a trailing slash or the /v1 the client adds itself', () => {
    expect(normalizeStateBaseUrl('https://user:secret@api.example.com/v1/')).toBe('https://api.example.com');
    expect(normalizeStateBaseUrl('http://127.0.0.1:3000/api/')).toBe('http://127.0.0.1:3000/api');
    expect(normalizeStateBaseUrl('not a url/')).toBe('not a url');
    expect(emptyState('local', 'http://u:p@localhost:1/').baseUrl).toBe('http://localhost:1');
  });

  it('keeps distinct services distinct', () => {
    expect(normalizeStateBaseUrl('https://api.example.com/eu')).not.toBe(
      normalizeStateBaseUrl('https://api.example.com'),
    );
  });
});

describe('normalizeStateBaseUrl with a non-http identity', () => {
  it('keeps the local target identity readable', async () => {
    const { normalizeStateBaseUrl } = await import('../../../src/state/format.js');
    expect(normalizeStateBaseUrl('embedded:local')).toBe('embedded:local');
    expect(normalizeStateBaseUrl('https://api.example.com/v1/')).toBe('https://api.example.com');
  });
});
