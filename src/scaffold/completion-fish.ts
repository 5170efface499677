/** The fish completion script (see completion.ts). Pure. */
import {
  type CompletionModel,
  fishQuote,
  sites,
  valueOptionNames,
  variadicOptionNames,
} from './completion-model.js';

export function buildFish(model: CompletionModel): string {
  const p = model.program;
  const fn = `__${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  // `contains -- X` with no list is false: an empty list of variadic options still reads right.
  const variadic = variadicOptionNames(model).map(fishQuote).join(' ');
  const lines: string[] = [
    `# fish completion for ${p} (\`${p} completion fish\`). Values from the project are literal text: never evaluated.`,
    `complete -c ${p} -e`,
    `complete -c ${p} -f`,
    '# The words before the cursor read as commander does. `path`: the command path so far (`state forget`): words',
    '# that name commands, skipping options and their values. `more`: the variadic option (`--only`) still taking',
    '# values, whose value the word at the cursor is unless it starts with -. `operands`: 1 after `--`.',
    `function ${fn}_scan --argument-names what`,
    '    set -l path',
    '    set -l valueof',
    '    set -l need 0',
    '    set -l operands 0',
    '    for word in (commandline -opc)[2..-1]',
    '        test $operands -eq 1; and continue',
    '        if test $need -eq 1',
    '            set need 0',
    `            contains -- $valueof ${variadic}; or set valueof`,
    '            continue',
    '        end',
    '        if test -n "$valueof"',
    "            if string match -q -- '-?*' $word",
    '                set valueof',
    '            else',
    '                continue',
    '            end',
    '        end',
    '        switch $word',
    "            case '--'",
    '                set operands 1',
    `            case ${valueOptionNames(model).map(fishQuote).join(' ')}`,
    '                set valueof $word',
    '                set need 1',
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
    '    switch $what',
    '        case path',
    "            string join ' ' $path",
    '        case more',
    '            test $need -eq 0; and printf %s\\n $valueof',
    '        case operands',
    '            printf %s\\n $operands',
    '    end',
    'end',
    `function ${fn}_path`,
    `    ${fn}_scan path`,
    'end',
    `function ${fn}_at --argument-names key`,
    `    set -l current (${fn}_path)`,
    '    test "$current" = "$key"',
    'end',
    '# Whether a variadic option still takes values (with names: one of these), the word at the cursor one of them.',
    `function ${fn}_more`,
    `    set -l active (${fn}_scan more)`,
    '    test -n "$active"; or return 1',
    '    test (count $argv) -eq 0; or contains -- $active $argv',
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
    const at = `${fn}_at ${fishQuote(site.key)}`;
    const condition = `-n ${fishQuote(at)}`;
    // Commands and arguments only where the word is not a variadic option's further value.
    const free = `-n ${fishQuote(`${at}; and not ${fn}_more`)}`;
    const subs = site.command?.subcommands ?? (site.key === '' ? model.commands : []);
    for (const sub of subs)
      lines.push(`complete -c ${p} ${free} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description)}`);
    const args = site.command?.args;
    if (args === 'files') lines.push(`complete -c ${p} ${free} -F`);
    else if (args) lines.push(`complete -c ${p} ${free} -a ${fishQuote(`(${fn}_dynamic ${args})`)}`);
    for (const option of site.options) {
      const value = option.value;
      if (!value?.variadic) continue;
      const more = `-n ${fishQuote(`${at}; and ${fn}_more ${option.names.map(fishQuote).join(' ')}`)}`;
      const values = value.dynamic
        ? `-f -a ${fishQuote(`(${fn}_dynamic ${value.dynamic})`)}`
        : value.choices
          ? `-f -a ${fishQuote(value.choices.join(' '))}`
          : '-F';
      lines.push(`complete -c ${p} ${more} ${values} -d ${fishQuote(option.description)}`);
    }
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
