import { describe, expect, it } from 'vitest';
import { buildSyncAdvice } from '../../../src/apply/create-failure.js';
import type { RunContext } from '../../../src/plan/command-line.js';
import { buildNextSteps } from '../../../src/plan/next-steps.js';

/**
 * The advice each plan item class ends with, for the default target (the bare command, as before) and for another
 * one (every command names it; the prose "sync" becomes the exact command).
 */

const DEFAULT: RunContext = { target: 'dev', targetIsDefault: true };
const STAGING: RunContext = { target: 'staging', targetIsDefault: false };
const QUOTED: RunContext = { target: 'my stage', targetIsDefault: false, configPath: 'ci/wfsync.yaml' };

type Say = ReturnType<typeof buildNextSteps>;
/** Every class, with the arguments it takes. */
const CLASSES: Record<string, (say: Say) => string> = {
  create: (say) => say.create(),
  inSync: (say) => say.inSync(),
  inSyncNewHash: (say) => say.inSyncNewHash(),
  inSyncAdopt: (say) => say.inSyncAdopt(),
  inSyncReplaced: (say) => say.inSyncReplaced('id-old', 'id-new'),
  driftedState: (say) => say.drifted('welcome', 'state'),
  driftedBase: (say) => say.drifted('welcome', 'base'),
  changedLocally: (say) => say.changedLocally('state'),
  missingRemotely: (say) => say.missingRemotely('welcome', 'id-old', 'workflows/welcome.yaml'),
  conflictNew: (say) => say.conflictNew('welcome'),
  conflictBoth: (say) => say.conflictBoth(),
  conflictUnknown: (say) => say.conflictUnknown('welcome'),
  orphaned: (say) => say.orphaned('welcome'),
  orphanedGone: (say) => say.orphanedGone('welcome'),
  error: (say) => say.error(),
};

/** The commands (in backticks) a sentence suggests. */
const commands = (text: string) => [...text.matchAll(/`(wfsync [^`]*)`/g)].map((m) => m[1]!);

describe('next steps, per item class', () => {
  it('the default target: the same sentences as with no context, every command bare', () => {
    for (const [name, say] of Object.entries(CLASSES)) {
      const text = say(buildNextSteps(DEFAULT));
      expect(text, name).toBe(say(buildNextSteps()));
      for (const command of commands(text)) expect(command, name).not.toContain('--target');
    }
    expect(CLASSES.create!(buildNextSteps(DEFAULT))).toBe('sync will create it.');
    expect(CLASSES.driftedState!(buildNextSteps(DEFAULT))).toContain('`wfsync pull welcome`');
    expect(CLASSES.orphaned!(buildNextSteps(DEFAULT))).toContain('`wfsync state forget welcome`');
  });

  it('another target: every command names it', () => {
    const expected: Record<string, string[]> = {
      create: ['wfsync sync --target staging'],
      inSync: [],
      inSyncNewHash: ['wfsync sync --target staging'],
      inSyncAdopt: ['wfsync sync --target staging'],
      inSyncReplaced: ['wfsync sync --target staging'],
      driftedState: ['wfsync pull welcome --target staging'],
      driftedBase: ['wfsync pull welcome --target staging'],
      changedLocally: [],
      missingRemotely: ['wfsync state forget welcome --target staging', 'wfsync sync --target staging'],
      conflictNew: [],
      conflictBoth: [],
      conflictUnknown: ['wfsync plan --base <branch> --target staging'],
      orphaned: ['wfsync state forget welcome --target staging'],
      orphanedGone: ['wfsync state forget welcome --target staging'],
      error: [],
      duplicate: [],
    };
    for (const [name, say] of Object.entries(CLASSES))
      expect(commands(say(buildNextSteps(STAGING))), name).toEqual(expected[name]);
  });

  it('a target and config file a shell would split: quoted, -c before the command', () => {
    const say = buildNextSteps(QUOTED);
    expect(commands(say.drifted('welcome', 'state'))).toEqual([
      "wfsync -c ci/wfsync.yaml pull welcome --target 'my stage'",
    ]);
    // The default target with another config file: the file alone is repeated.
    const configOnly = buildNextSteps({ ...DEFAULT, configPath: 'other.yaml' });
    expect(configOnly.create()).toBe('`wfsync -c other.yaml sync` will create it.');
  });
});

describe("sync's advice", () => {
  it('run sync again: bare for the default target, exact for another', () => {
    expect(buildSyncAdvice().again).toBe('run `wfsync sync` again');
    expect(buildSyncAdvice(DEFAULT).again).toBe('run `wfsync sync` again');
    expect(buildSyncAdvice(STAGING).again).toBe('run `wfsync sync --target staging` again');
    expect(buildSyncAdvice({ ...STAGING, statePath: 'state dir/s.json' }).cli('pull', 'welcome')).toBe(
      "`wfsync pull welcome --target staging --state 'state dir/s.json'`",
    );
  });
});
