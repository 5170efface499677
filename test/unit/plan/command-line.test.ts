import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandLine, type RunContext, shellWord } from '../../../src/plan/command-line.js';

/** What a POSIX shell does to one word: unquoted plain characters, '…' taken literally. The model shellWord must meet. */
function readBack(word: string): string[] {
  const words: string[] = [];
  let current = '';
  let started = false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${word}`);
      current += word.slice(i + 1, end);
      started = true;
      i = end;
    } else if (c === ' ') {
      if (started) words.push(current);
      current = '';
      started = false;
    } else if (c === '\\') {
      current += word[++i] ?? '';
      started = true;
    } else if (/[A-Za-z0-9_./:=@%+,-]/.test(c)) {
      current += c;
      started = true;
    } else throw new Error(`unquoted special character ${JSON.stringify(c)} in ${word}`);
  }
  if (started) words.push(current);
  return words;
}

/** Strings rich in what a shell treats specially. */
const shellish = fc.string({
  unit: fc.oneof(
    fc.constantFrom("'", '"', '$', '`', '\\', ' ', '\n', '\t', '*', '?', '~', '#', ';', '&', '|', '!'),
    fc.constantFrom('(', ')', '<', '>', '{', '}', '[', ']', '=', '-', '.', '/', 'é', '😀'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
});

describe('shellWord', () => {
  it('is read back by the model as exactly one word, the value (property)', () => {
    fc.assert(
      fc.property(shellish, (value) => {
        expect(readBack(shellWord(value))).toEqual([value]);
      }),
    );
  });

  it('leaves plain names and paths as they are, quotes everything else', () => {
    expect(shellWord('staging')).toBe('staging');
    expect(shellWord('configs/wfsync.prod.yaml')).toBe('configs/wfsync.prod.yaml');
    expect(shellWord('my target')).toBe("'my target'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('')).toBe("''");
    expect(shellWord('~/x')).toBe("'~/x'");
  });

  it('a real sh reads each quoted word back as the value', () => {
    const sh = spawnSync('sh', ['-c', 'true']);
    if (sh.error) {
      if (process.env.CI) throw sh.error;
      console.log('skipped: no sh on PATH');
      return;
    }
    // Argument strings cannot hold NUL; everything else goes.
    const values = fc.sample(
      shellish.filter((v) => !v.includes('\0')),
      { numRuns: 200, seed: 14 },
    );
    values.push('$(touch /tmp/wfsync-never)', '`id`', 'a\'b"c', '');
    const script = `for word in ${values.map(shellWord).join(' ')}; do printf '%s\\0' "$word"; done`;
    const out = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout.split('\0').slice(0, -1)).toEqual(values);
  });
});

describe('commandLine', () => {
  const staging: RunContext = { target: 'staging', targetIsDefault: false };

  it('is the bare command without a context or for the default target and files', () => {
    expect(commandLine(undefined, 'pull', { args: ['welcome'] })).toBe('wfsync pull welcome');
    expect(commandLine({ target: 'dev', targetIsDefault: true }, 'sync')).toBe('wfsync sync');
  });

  it('names a target that is not the default, after the arguments', () => {
    expect(commandLine(staging, 'state forget', { args: ['welcome'] })).toBe(
      'wfsync state forget welcome --target staging',
    );
  });

  it('repeats -c before the command, --state, and --base only when asked', () => {
    const run: RunContext = {
      ...staging,
      configPath: 'ci/wfsync config.yaml',
      statePath: '.state/staging.json',
      base: 'origin/main',
    };
    expect(commandLine(run, 'sync')).toBe(
      "wfsync -c 'ci/wfsync config.yaml' sync --target staging --state .state/staging.json",
    );
    expect(commandLine(run, 'plan', { withBase: true })).toBe(
      "wfsync -c 'ci/wfsync config.yaml' plan --target staging --state .state/staging.json --base origin/main",
    );
  });

  it('quotes a target and an argument a shell would expand', () => {
    const odd: RunContext = { target: 'pre $PROD', targetIsDefault: false };
    expect(commandLine(odd, 'pull', { args: ['a;b'] })).toBe("wfsync pull 'a;b' --target 'pre $PROD'");
  });

  it('repeats a base URL given on the command line or by WFSYNC_BASE_URL', () => {
    const run: RunContext = {
      target: 'default',
      targetIsDefault: true,
      baseUrl: 'https://api.example.com/x?a=1&b',
    };
    expect(commandLine(run, 'pull', { args: ['welcome'] })).toBe(
      "wfsync pull welcome --base-url 'https://api.example.com/x?a=1&b'",
    );
  });

  it("repeats --allow for plan and sync only (the commands that take it), the default target's too", () => {
    const run: RunContext = { target: 'dev', targetIsDefault: true, allow: ['update', 'delete'] };
    expect(commandLine(run, 'sync')).toBe('wfsync sync --allow update,delete');
    expect(commandLine(run, 'plan', { tail: '--base <branch>' })).toBe(
      'wfsync plan --base <branch> --allow update,delete',
    );
    expect(commandLine(run, 'state forget', { args: ['welcome'] })).toBe('wfsync state forget welcome');
    expect(commandLine(run, 'pull', { args: ['welcome'] })).toBe('wfsync pull welcome');
  });

  it('keeps a placeholder tail as written', () => {
    expect(commandLine(staging, 'plan', { tail: '--base <branch>' })).toBe(
      'wfsync plan --base <branch> --target staging',
    );
  });
});
