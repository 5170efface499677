/**
 * `wfsync completion bash|zsh|fish`: a thin script per shell. On Tab it runs `PROGRAM __complete -- WORDS…` (the words
 * after the program's name up to the cursor, the last one the word being completed) and offers what that prints: one
 * candidate a line, a tab before its description, then one last line, `:files` when file names fit as well, else
 * `:none` (cli/completion-answer.ts reads the words as commander does). A candidate is literal text: never evaluated,
 * split or globbed, and quoted as it is inserted. The scripts know no command, so an upgrade needs no new one. Pure.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function buildCompletionScript(shell: Shell, program: string): string {
  const name = program.replace(/[^A-Za-z0-9_]/g, '_');
  if (shell === 'bash') return bash(program, name);
  if (shell === 'zsh') return zsh(program, name);
  return fish(program, name);
}

function bash(program: string, name: string): string {
  return `# bash completion for ${program} (\`${program} completion bash\`): Tab asks \`${program} __complete\` what to offer.
_${name}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} out line quoted
  local -a lines
  COMPREPLY=()
  out=$(command "\${COMP_WORDS[0]}" __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  mapfile -t lines <<<"$out"
  for line in "\${lines[@]:0:\${#lines[@]}-1}"; do
    printf -v quoted '%q' "\${line%%$'\\t'*}"
    COMPREPLY+=("$quoted")
  done
  if [[ \${lines[-1]} == :files ]]; then
    local IFS=$'\\n'
    COMPREPLY+=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
  fi
  return 0
}
complete -F _${name} ${program}
`;
}

function zsh(program: string, name: string): string {
  return `#compdef ${program}
# zsh completion for ${program} (\`${program} completion zsh\`): Tab asks \`${program} __complete\` what to offer.
_${name}() {
  local out line
  local -a lines described plain
  out=$(command "\${words[1]}" __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  for line in "\${(@)lines[1,-2]}"; do
    if [[ $line == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      plain+=("$line")
    fi
  done
  (( \${#described} )) && _describe -t values value described
  (( \${#plain} )) && compadd -- "\${(@)plain}"
  [[ \${lines[-1]} == :files ]] && _files
  return 0
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _${name} "$@"
else
  compdef _${name} ${program}
fi
`;
}

function fish(program: string, name: string): string {
  return `# fish completion for ${program} (\`${program} completion fish\`): Tab asks \`${program} __complete\` what to offer.
function __${name}_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l lines (command $words[1] __complete -- $words[2..-1] $current 2>/dev/null)
    or return
    set -q lines[1]; or return
    set -l directive $lines[-1]
    set -e lines[-1]
    set -q lines[1]; and printf '%s\\n' $lines
    test "$directive" = :files; and __fish_complete_path $current
end
complete -c ${program} -e
complete -c ${program} -f -a '(__${name}_complete)'
`;
}
