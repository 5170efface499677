/**
 * `wfsync completion bash|zsh|fish`: the scripts, built from a model of the command line (cli/commands/completion.ts
 * derives it from the commander program, so a new command or flag is completed without editing this file). Values
 * that come from the project (targets, identifiers) are asked of `wfsync __complete <kind>` when the user presses
 * Tab, one per line, and every script treats a line as literal text: never evaluated, split or globbed, and quoted
 * when inserted. Pure.
 */

/** Values read from the project when completing. */
export type DynamicKind = 'targets' | 'identifiers';

export interface CompletionOption {
  /** `-t`, `--target` */
  names: string[];
  description: string;
  /** What follows the option, if it takes a value. */
  value?: { choices?: readonly string[]; dynamic?: DynamicKind; files?: boolean };
}

export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionOption[];
  /** What the positional arguments are. */
  args?: DynamicKind | 'files';
  subcommands: CompletionCommand[];
}

export interface CompletionModel {
  program: string;
  options: CompletionOption[];
  commands: CompletionCommand[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** A command at a path (`plan`, `state forget`), with the options that apply there (the program's too). */
interface Site {
  key: string;
  command: CompletionCommand | undefined;
  options: CompletionOption[];
}

function sites(model: CompletionModel): Site[] {
  const out: Site[] = [{ key: '', command: undefined, options: model.options }];
  const walk = (command: CompletionCommand, prefix: string) => {
    const key = prefix === '' ? command.name : `${prefix} ${command.name}`;
    out.push({ key, command, options: [...command.options, ...model.options] });
    for (const sub of command.subcommands) walk(sub, key);
  };
  for (const command of model.commands) walk(command, '');
  return out;
}

/** Options that take a value, anywhere: their next word is never a command. */
function valueOptionNames(model: CompletionModel): string[] {
  return [...new Set(sites(model).flatMap((s) => s.options.filter((o) => o.value).flatMap((o) => o.names)))];
}

/** Single-quoted for bash and zsh: nothing inside is expanded. */
function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Single-quoted for fish (backslash and quote escaped). */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** The case labels of a site's options that take a value: `plan:--target|plan:-t`. */
function valueCases(site: Site): Array<{ labels: string; option: CompletionOption }> {
  return site.options
    .filter((o) => o.value)
    .map((option) => ({ labels: option.names.map((n) => shQuote(`${site.key}:${n}`)).join('|'), option }));
}

export function buildCompletionScript(shell: Shell, model: CompletionModel): string {
  if (shell === 'bash') return buildBash(model);
  if (shell === 'zsh') return buildZsh(model);
  return buildFish(model);
}

/**
 * The command path (`state forget`) and the words before the cursor, shared by bash and zsh: words that are not
 * options (nor an option's value) name commands while they name one.
 */
function pathFinder(model: CompletionModel, name: string): string {
  const keys = sites(model)
    .map((s) => s.key)
    .filter((k) => k !== '');
  return `${name}_path() {
  # $1…: the words between the program and the cursor. Prints the command path (\`state forget\`).
  local cmdpath='' word skip=0
  for word in "$@"; do
    if (( skip )); then skip=0; continue; fi
    case "$word" in
      ${valueOptionNames(model).map(shQuote).join('|')}) skip=1 ;;
      -*) ;;
      *)
        case "\${cmdpath:+$cmdpath }$word" in
          ${keys.map(shQuote).join('|')}) cmdpath="\${cmdpath:+$cmdpath }$word" ;;
        esac ;;
    esac
  done
  printf '%s' "$cmdpath"
}
# The config file named on the line (-c/--config), so the project's values come from it.
${name}_config() {
  local prev='' word
  for word in "$@"; do
    case "$prev" in -c|--config) printf '%s' "$word"; return ;; esac
    case "$word" in --config=*) printf '%s' "\${word#--config=}"; return ;; esac
    prev=$word
  done
}`;
}

function buildBash(model: CompletionModel): string {
  const p = model.program;
  const name = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const cases: string[] = [];
  for (const site of sites(model)) {
    for (const { labels, option } of valueCases(site)) {
      const value = option.value!;
      const action = value.dynamic
        ? `${name}_dynamic ${value.dynamic}`
        : value.choices
          ? `${name}_add ${value.choices.map(shQuote).join(' ')}`
          : `${name}_files`;
      cases.push(`    ${labels}) ${action}; return 0 ;;`);
    }
  }
  const words: string[] = [];
  for (const site of sites(model)) {
    const options = [...new Set(site.options.flatMap((o) => o.names))];
    const subs = (site.command?.subcommands ?? (site.key === '' ? model.commands : [])).map((c) => c.name);
    const args = site.command?.args;
    const rest =
      subs.length > 0
        ? `${name}_add ${subs.map(shQuote).join(' ')}`
        : args === 'files'
          ? `${name}_files`
          : args
            ? `${name}_dynamic ${args}`
            : ':';
    words.push(
      `    ${shQuote(site.key)})\n      if [[ $cur == -* ]]; then ${name}_add ${options.map(shQuote).join(' ')}\n      else ${rest}; fi ;;`,
    );
  }
  return `# bash completion for ${p} (\`${p} completion bash\`). Values from the project are literal text: never evaluated.
${pathFinder(model, name)}
# Adds each argument that starts with what is typed, quoted for the command line.
${name}_add() {
  local word
  for word in "$@"; do
    [[ -n $word && $word == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$word")")
  done
  return 0
}
${name}_files() {
  local IFS=$'\\n'
  COMPREPLY+=($(compgen -f -- "$cur"))
  compopt -o filenames 2>/dev/null
  return 0
}
# Project values, one per line from \`${p} __complete KIND\` (no network).
${name}_dynamic() {
  local config lines
  config=$(${name}_config "\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  if [[ -n $config ]]; then
    lines=$(command "\${COMP_WORDS[0]}" --config "$config" __complete "$1" 2>/dev/null)
  else
    lines=$(command "\${COMP_WORDS[0]}" __complete "$1" 2>/dev/null)
  fi
  local -a values=()
  [[ -n $lines ]] && mapfile -t values <<<"$lines"
  ${name}_add "\${values[@]}"
}
${name}() {
  COMPREPLY=()
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=''
  (( COMP_CWORD > 1 )) && prev=\${COMP_WORDS[COMP_CWORD-1]}
  local cmdpath
  cmdpath=$(${name}_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  case "$cmdpath:$prev" in
${cases.join('\n')}
  esac
  case "$cmdpath" in
${words.join('\n')}
  esac
  return 0
}
complete -F ${name} ${p}
`;
}

function buildZsh(model: CompletionModel): string {
  const p = model.program;
  const name = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const cases: string[] = [];
  for (const site of sites(model)) {
    for (const { labels, option } of valueCases(site)) {
      const value = option.value!;
      const action = value.dynamic
        ? `${name}_dynamic ${value.dynamic}`
        : value.choices
          ? `compadd -- ${value.choices.map(shQuote).join(' ')}`
          : '_files';
      cases.push(`    ${labels}) ${action}; return ;;`);
    }
  }
  const words: string[] = [];
  for (const site of sites(model)) {
    const options = site.options.flatMap((o) =>
      o.names.map((n) => shQuote(`${n}:${o.description.replace(/[:\\]/g, (c) => `\\${c}`)}`)),
    );
    const subs = site.command?.subcommands ?? (site.key === '' ? model.commands : []);
    const described = subs.map((c) =>
      shQuote(`${c.name}:${c.description.replace(/[:\\]/g, (ch) => `\\${ch}`)}`),
    );
    const args = site.command?.args;
    const rest =
      subs.length > 0
        ? `local -a commands=(${described.join(' ')}); _describe -t commands command commands`
        : args === 'files'
          ? '_files'
          : args
            ? `${name}_dynamic ${args}`
            : ':';
    words.push(
      `    ${shQuote(site.key)})\n      if [[ $cur == -* ]]; then local -a options=(${options.join(' ')}); _describe -t options option options\n      else ${rest}; fi ;;`,
    );
  }
  return `#compdef ${p}
# zsh completion for ${p} (\`${p} completion zsh\`). Values from the project are literal text: never evaluated.
${pathFinder(model, name)}
# Project values, one per line from \`${p} __complete KIND\` (no network); compadd quotes them as it inserts them.
${name}_dynamic() {
  local config lines
  config=$(${name}_config "\${(@)words[2,CURRENT-1]}")
  if [[ -n $config ]]; then
    lines=$(command "\${words[1]}" --config "$config" __complete "$1" 2>/dev/null)
  else
    lines=$(command "\${words[1]}" __complete "$1" 2>/dev/null)
  fi
  local -a values
  values=("\${(@f)lines}")
  values=("\${(@)values:#}")
  (( \${#values} )) && compadd -- "\${(@)values}"
}
${name}() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} cmdpath
  (( CURRENT > 2 )) || prev=''
  cmdpath=$(${name}_path "\${(@)words[2,CURRENT-1]}")
  case "$cmdpath:$prev" in
${cases.join('\n')}
  esac
  case "$cmdpath" in
${words.join('\n')}
  esac
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${name} "$@"
else
  compdef ${name} ${p}
fi
`;
}

function buildFish(model: CompletionModel): string {
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
