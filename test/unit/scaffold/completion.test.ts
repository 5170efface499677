import { describe, expect, it } from 'vitest';
import { buildCompletionScript, SHELLS } from '../../../src/scaffold/completion.js';

describe('buildCompletionScript', () => {
  it('each script asks `PROGRAM __complete --` and registers itself; it names no command, so it never goes stale', () => {
    for (const shell of SHELLS) {
      const script = buildCompletionScript(shell, 'wfsync');
      expect(script, shell).toContain(' __complete -- ');
      for (const command of ['plan', 'sync', 'state', '--format', '--target']) {
        expect(script, shell).not.toMatch(new RegExp(`[\\s'"]${command}[\\s'"]`));
      }
    }
    expect(buildCompletionScript('bash', 'wfsync')).toContain('complete -F _wfsync wfsync\n');
    expect(buildCompletionScript('zsh', 'wfsync').startsWith('#compdef wfsync\n')).toBe(true);
    expect(buildCompletionScript('fish', 'wfsync')).toContain(
      "complete -c wfsync -f -a '(__wfsync_complete)'\n",
    );
  });

  it('bash quotes each candidate as it inserts it (printf %q), never through compgen -W or eval', () => {
    const script = buildCompletionScript('bash', 'wfsync');
    expect(script).toContain(`printf -v quoted '%q'`);
    expect(script).not.toContain('compgen -W');
    expect(script).not.toContain('eval');
  });

  it('a program name that is not a shell word makes valid function names', () => {
    expect(buildCompletionScript('bash', 'wf-sync')).toContain('_wf_sync() {');
    expect(buildCompletionScript('fish', 'wf-sync')).toContain('function __wf_sync_complete');
  });
});
