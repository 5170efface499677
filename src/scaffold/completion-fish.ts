/** The fish completion script (see completion.ts). Pure. */
import { type CompletionModel, fishQuote, sites, valueOptionNames } from './completion-model.js';

export function buildFish(model: CompletionModel): string {
  const p = model.program;
  const fn = `__${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const lines: string[] = [
    `# fish completion for ${p} (\`${p} completion fish\`). Values from the project are literal text: never evaluated.`,
    `complete -c ${p} -e`,
    `complete -c ${p} -f`,
    '# The command path so far (`state forget`): words that name commands, skipping options and their values.',
    `function ${fn}_path`,
    '    set -l path',
    '    set -l skip 0',
    '    for word in (commandline -opc)[2..-1]',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    `            case ${valueOptionNames(model).map(fishQuote).join(' ')}`,
    '                set skip 1',
    "            case '-*'",
    "            case '*'",
    "                set -l candidate (string join ' ' $path $word)",
    `                if contains -- $candidate ${sites(model)
      .map((s) => s.key)
      .filter((k) => k !== '')
      .map(fishQuote)
      .join(' ')}`,
    '                    set path $path $word',
    '                end',
    '        end',
    '    end',
    "    string join ' ' $path",
    'end',
    `function ${fn}_at --argument-names key`,
    `    set -l current (${fn}_path)`,
    '    test "$current" = "$key"',
    'end',
    '# Project values, one per line from `__complete KIND` (no network); fish inserts them quoted.',
    `function ${fn}_dynamic --argument-names kind`,
    '    set -l words (commandline -opc)',
    '    set -l config',
    '    for i in (seq 2 (count $words))',
    '        if contains -- $words[(math $i - 1)] -c --config',
    '            set config --config $words[$i]',
    '        end',
    '    end',
    `    command $words[1] $config __complete $kind 2>/dev/null`,
    'end',
  ];
  for (const site of sites(model)) {
    const condition = `-n ${fishQuote(`${fn}_at ${fishQuote(site.key)}`)}`;
    const subs = site.command?.subcommands ?? (site.key === '' ? model.commands : []);
    for (const sub of subs)
      lines.push(`complete -c ${p} ${condition} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description)}`);
    const args = site.command?.args;
    if (args === 'files') lines.push(`complete -c ${p} ${condition} -F`);
    else if (args) lines.push(`complete -c ${p} ${condition} -a ${fishQuote(`(${fn}_dynamic ${args})`)}`);
    const own = site.key === '' ? site.options : (site.command?.options ?? []);
    // The program's options apply everywhere: once, unconditioned.
    for (const option of own) {
      const names = option.names.map((n) =>
        n.startsWith('--') ? `-l ${fishQuote(n.slice(2))}` : `-s ${fishQuote(n.slice(1))}`,
      );
      const value = option.value;
      const values = value?.dynamic
        ? ` -x -a ${fishQuote(`(${fn}_dynamic ${value.dynamic})`)}`
        : value?.choices
          ? ` -x -a ${fishQuote(value.choices.join(' '))}`
          : value
            ? ' -r -F'
            : '';
      const where = site.key === '' ? '' : ` ${condition}`;
      lines.push(`complete -c ${p}${where} ${names.join(' ')}${values} -d ${fishQuote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
