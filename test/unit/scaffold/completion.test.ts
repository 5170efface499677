import { describe, expect, it } from 'vitest';
import { buildCompletionScript, type CompletionModel } from '../../../src/scaffold/completion.js';

const MODEL: CompletionModel = {
  program: 'wfsync',
  options: [{ names: ['-c', '--config'], description: 'config file', value: { files: true } }],
  commands: [
    {
      name: 'plan',
      description: "it's $(not run): `x`",
      options: [
        { names: ['-t', '--target'], description: 'target', value: { dynamic: 'targets' } },
        { names: ['--format'], description: 'format', value: { choices: ['human', 'json'] } },
      ],
      subcommands: [],
    },
    { name: 'pull', description: 'pull', options: [], args: 'identifiers', subcommands: [] },
  ],
};

describe('buildCompletionScript', () => {
  it('bash: choices and command names single-quoted; project values only through __complete, never compgen -W', () => {
    const script = buildCompletionScript('bash', MODEL);
    expect(script).toContain(`'plan:--format') _wfsync_add 'human' 'json'; return 0 ;;`);
    expect(script).toContain(`'plan:-t'|'plan:--target') _wfsync_dynamic targets; return 0 ;;`);
    expect(script).toContain('complete -F _wfsync wfsync\n');
    expect(script).not.toContain('compgen -W');
  });

  it('a variadic option is read as commander reads it: its words are values until the next option or --', () => {
    const model: CompletionModel = {
      ...MODEL,
      commands: [
        {
          name: 'plan',
          description: 'plan',
          options: [
            { names: ['--only'], description: 'only', value: { dynamic: 'identifiers', variadic: true } },
          ],
          subcommands: [],
        },
      ],
    };
    for (const shell of ['bash', 'zsh'] as const) {
      // Without one, the scanner's variadic pattern matches no option; with one, it names it.
      expect(buildCompletionScript(shell, MODEL)).toContain(
        `case "$valueof" in '') ;; *) valueof='' ;; esac`,
      );
      expect(buildCompletionScript(shell, model)).toContain(
        `case "$valueof" in '--only') ;; *) valueof='' ;; esac`,
      );
    }
    expect(buildCompletionScript('fish', model)).toContain(
      `complete -c wfsync -n '__wfsync_at \\'plan\\'; and __wfsync_more \\'--only\\'' -f -a '(__wfsync_dynamic identifiers)'`,
    );
  });

  it('zsh and fish: a description with quotes and $(…) stays inside single quotes', () => {
    expect(buildCompletionScript('zsh', MODEL)).toContain(`'plan:it'\\''s $(not run)\\: \`x\`'`);
    expect(buildCompletionScript('fish', MODEL)).toContain(`-d 'it\\'s $(not run): \`x\`'`);
    expect(buildCompletionScript('zsh', MODEL).startsWith('#compdef wfsync\n')).toBe(true);
  });
});
