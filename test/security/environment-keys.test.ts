import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTarget } from '../e2e/plan-sync-target.js';

/**
 * `GET /v1/environments/me` answers the environment's API keys in clear (`apiKeys`). wfsync drops that field on
 * receipt: no key of the environment other than the one wfsync was given may appear in anything a run writes
 * (stdout, stderr with --verbose, the plan file, the JSON documents, the state file). The canary is a second key
 * of the environment, so redaction of wfsync's own key cannot be what hides it.
 */

const CANARY = 'wfs_canary_env_key_5f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** Every file under `dir` (the project: state, plan, caches), read as text. */
function filesUnder(dir: string): string[] {
  const texts: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    texts.push(readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts;
}

describe("the environment's apiKeys never leave the client", () => {
  it('Development key: plan (every format, --out, --verbose) and sync (json, state) never show a second key', async () => {
    const target = await startTarget({ emulator: { developmentKeys: [CANARY] } });
    const texts: string[] = [];
    for (const format of ['human', 'json', 'markdown', 'github']) {
      const planned = await target.run(['plan', '--verbose', '--format', format, '--out', 'plan.json']);
      expect(planned.status, format).toBe(2);
      texts.push(planned.stdout, planned.stderr);
    }
    expect(target.emulator.requests().some((r) => r.path === '/v1/environments/me')).toBe(true);
    const synced = await target.run(['sync', '--verbose', '--format', 'json']);
    expect(synced.status).toBe(0);
    texts.push(synced.stdout, synced.stderr);
    expect(existsSync(target.statePath)).toBe(true);
    texts.push(...filesUnder(target.cwd));
    for (const text of texts) expect(text).not.toContain(CANARY.slice(0, 16));
  });

  it('Production key refused: the error, in every format, never shows the environment’s other key', async () => {
    const productionKey = 'wfs_production_key_00112233445566778899';
    const target = await startTarget({ emulator: { productionKeys: [productionKey, CANARY] } });
    for (const args of [
      ['plan', '--verbose'],
      ['plan', '--format', 'json'],
      ['sync', '--format', 'github'],
    ]) {
      const run = await target.run(args, { DEV_KEY: productionKey });
      expect(run.status, args.join(' ')).toBe(4);
      for (const text of [run.stdout, run.stderr]) {
        expect(text).not.toContain(CANARY.slice(0, 16));
        expect(text).not.toContain(productionKey);
      }
    }
    for (const text of filesUnder(target.cwd)) expect(text).not.toContain(CANARY.slice(0, 16));
  });
});
