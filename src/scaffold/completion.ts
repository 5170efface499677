/**
 * `wfsync completion bash|zsh|fish`: the scripts, built from a model of the command line (cli/commands/completion.ts
 * derives it from the commander program, so a new command or flag is completed without editing this file). Values
 * that come from the project (targets, identifiers) are asked of `wfsync __complete <kind>` when the user presses
 * Tab, one per line, and every script treats a line as literal text: never evaluated, split or globbed, and quoted
 * when inserted. Pure.
 */

import { buildFish } from './completion-fish.js';
import {
  type CompletionModel,
  type Shell,
  shQuote,
  sites,
  valueCases,
  wordScanner,
} from './completion-model.js';

export type {
  CompletionCommand,
  CompletionModel,
  CompletionOption,
  DynamicKind,
  Shell,
} from './completion-model.js';
export { SHELLS } from './completion-model.js';

export function buildCompletionScript(shell: Shell, model: CompletionModel): string {
  if (shell === 'bash') return buildBash(model);
  if (shell === 'zsh') return buildZsh(model);
  return buildFish(model);
}

/** How a shell offers each kind of value: project values by kind, fixed choices, file names. */
interface ShellActions {
  dynamic(kind: string): string;
  choices(values: readonly string[]): string;
  files: string;
}

/** One `case` line per option that takes a value (`path:--format) <offer the choices>; <end> ;;`). */
function valueCaseLines(model: CompletionModel, actions: ShellActions, end: string): string[] {
  const cases: string[] = [];
  for (const site of sites(model)) {
    for (const { labels, option } of valueCases(site)) {
      const value = option.value!;
      const action = value.dynamic
        ? actions.dynamic(value.dynamic)
        : value.choices
          ? actions.choices(value.choices)
          : actions.files;
      cases.push(`      ${labels}) ${action}; ${end} ;;`);
    }
  }
  return cases;
}

/** What a command's positional arguments complete to: files, project values, or nothing. */
function argumentAction(args: string | undefined, actions: ShellActions): string {
  if (args === 'files') return actions.files;
  return args ? actions.dynamic(args) : ':';
}

/**
 * The body bash and zsh share once the words are scanned: an option's value first (right after the option, or while
 * a variadic option takes values, unless the word starts with -), then the options, commands or operands of the
 * command path.
 */
function dispatch(cases: readonly string[], words: readonly string[]): string {
  return `  # The word is an option's value: right after it, or while a variadic option takes values (unless it starts with -).
  if (( need )) || [[ -n $valueof && $cur != -* ]]; then
    case "$cmdpath:$valueof" in
${cases.join('\n')}
    esac
  fi
  case "$cmdpath" in
${words.join('\n')}
  esac`;
}

function buildBash(model: CompletionModel): string {
  const p = model.program;
  const name = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const actions: ShellActions = {
    dynamic: (kind) => `${name}_dynamic ${kind}`,
    choices: (values) => `${name}_add ${values.map(shQuote).join(' ')}`,
    files: `${name}_files`,
  };
  const cases = valueCaseLines(model, actions, 'return 0');
  const words: string[] = [];
  for (const site of sites(model)) {
    const options = [...new Set(site.options.flatMap((o) => o.names))];
    const subs = (site.command?.subcommands ?? (site.key === '' ? model.commands : [])).map((c) => c.name);
    const rest = subs.length > 0 ? actions.choices(subs) : argumentAction(site.command?.args, actions);
    words.push(
      `    ${shQuote(site.key)})\n      if (( ! operands )) && [[ $cur == -* ]]; then ${name}_add ${options.map(shQuote).join(' ')}\n      else ${rest}; fi ;;`,
    );
  }
  return `# bash completion for ${p} (\`${p} completion bash\`). Values from the project are literal text: never evaluated.
${wordScanner(model, name)}
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
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath valueof need operands
  ${name}_scan "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
${dispatch(cases, words)}
  return 0
}
complete -F ${name} ${p}
`;
}

function buildZsh(model: CompletionModel): string {
  const p = model.program;
  const name = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const actions: ShellActions = {
    dynamic: (kind) => `${name}_dynamic ${kind}`,
    choices: (values) => `compadd -- ${values.map(shQuote).join(' ')}`,
    files: '_files',
  };
  const cases = valueCaseLines(model, actions, 'return');
  const words: string[] = [];
  for (const site of sites(model)) {
    const options = site.options.flatMap((o) =>
      o.names.map((n) => shQuote(`${n}:${o.description.replace(/[:\\]/g, (c) => `\\${c}`)}`)),
    );
    const subs = site.command?.subcommands ?? (site.key === '' ? model.commands : []);
    const described = subs.map((c) =>
      shQuote(`${c.name}:${c.description.replace(/[:\\]/g, (ch) => `\\${ch}`)}`),
    );
    const rest =
      subs.length > 0
        ? `local -a commands=(${described.join(' ')}); _describe -t commands command commands`
        : argumentAction(site.command?.args, actions);
    words.push(
      `    ${shQuote(site.key)})\n      if (( ! operands )) && [[ $cur == -* ]]; then local -a options=(${options.join(' ')}); _describe -t options option options\n      else ${rest}; fi ;;`,
    );
  }
  return `#compdef ${p}
# zsh completion for ${p} (\`${p} completion zsh\`). Values from the project are literal text: never evaluated.
${wordScanner(model, name)}
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
  local cur=\${words[CURRENT]} cmdpath valueof need operands
  ${name}_scan "\${(@)words[2,CURRENT-1]}"
${dispatch(cases, words)}
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${name} "$@"
else
  compdef ${name} ${p}
fi
`;
}
