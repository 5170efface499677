import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED_ACTIONS } from '../../src/scaffold/ci/common.js';

const WORKFLOWS = path.join(import.meta.dirname, '../../.github/workflows');
const USES = /^\s*(?:-\s+)?uses:\s*(\S+)(?:\s+#\s*(\S+))?/;

/** Every `uses:` line of this repository's own workflows, with the file it is in. */
function usesLines(): Array<{ file: string; ref: string; comment?: string }> {
  return readdirSync(WORKFLOWS)
    .filter((name) => /\.ya?ml$/.test(name))
    .flatMap((name) =>
      readFileSync(path.join(WORKFLOWS, name), 'utf8')
        .split('\n')
        .flatMap((line) => {
          const match = USES.exec(line);
          return match ? [{ file: name, ref: match[1] as string, comment: match[2] }] : [];
        }),
    );
}

describe("this repository's workflows", () => {
  it('pin every third-party action to the same SHA and release the recipes use', () => {
    const pins = new Map<string, { sha: string; release: string }>(
      Object.values(PINNED_ACTIONS).map((p) => [p.action, p]),
    );
    const lines = usesLines().filter((u) => !u.ref.startsWith('./'));
    expect(lines.length).toBeGreaterThan(0);
    for (const u of lines) {
      const [action, sha] = u.ref.split('@');
      const pin = pins.get(action as string);
      expect(pin, `${u.file}: ${u.ref} is not one of the recipes' pinned actions`).toBeDefined();
      expect({ file: u.file, sha, release: u.comment }).toEqual({
        file: u.file,
        sha: pin?.sha,
        release: pin?.release,
      });
    }
  });
});
