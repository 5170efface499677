/** The model the completion scripts are built from, and what the shells' scripts share. Pure. */

/** Values read from the project when completing. */
export type DynamicKind = 'targets' | 'identifiers';

export interface CompletionOption {
  /** `-t`, `--target` */
  names: string[];
  description: string;
  /** What follows the option, if it takes a value. */
  value?: {
    choices?: readonly string[];
    dynamic?: DynamicKind;
    files?: boolean;
    /** `--only <pattern...>`: the words after it are values too, until the next option or `--` (as commander reads them). */
    variadic?: boolean;
  };
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
export interface Site {
  key: string;
  command: CompletionCommand | undefined;
  options: CompletionOption[];
}

export function sites(model: CompletionModel): Site[] {
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
export function valueOptionNames(model: CompletionModel): string[] {
  return [...new Set(sites(model).flatMap((s) => s.options.filter((o) => o.value).flatMap((o) => o.names)))];
}

/** Options whose value is a list: every word after them is a value until one that starts with `-` (`--` included). */
export function variadicOptionNames(model: CompletionModel): string[] {
  return [
    ...new Set(
      sites(model).flatMap((s) => s.options.filter((o) => o.value?.variadic).flatMap((o) => o.names)),
    ),
  ];
}

/** A `case` pattern (bash, zsh) for these words; one that matches nothing when there are none. */
function casePattern(words: readonly string[]): string {
  return words.length > 0 ? words.map(shQuote).join('|') : "''";
}

/** Single-quoted for bash and zsh: nothing inside is expanded. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Single-quoted for fish (backslash and quote escaped). */
export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** The case labels of a site's options that take a value: `plan:--target|plan:-t`. */
export function valueCases(site: Site): Array<{ labels: string; option: CompletionOption }> {
  return site.options
    .filter((o) => o.value)
    .map((option) => ({ labels: option.names.map((n) => shQuote(`${site.key}:${n}`)).join('|'), option }));
}

/**
 * Reads the words before the cursor as commander does, shared by bash and zsh. `NAME_scan WORDS…` sets, in the
 * caller's locals: `cmdpath`, the command path (`state forget`): words that are not options (nor an option's value)
 * name commands while they name one; `valueof`, the option whose value the word at the cursor may be, with `need`
 * 1 when it must be (the word right after an option that takes a value) and 0 while a variadic option still takes
 * values (the word is then one unless it starts with `-`); `operands`, 1 after `--` (only operands follow).
 */
export function wordScanner(model: CompletionModel, name: string): string {
  const keys = sites(model)
    .map((s) => s.key)
    .filter((k) => k !== '');
  return `${name}_scan() {
  local word
  cmdpath='' valueof='' need=0 operands=0
  for word in "$@"; do
    (( operands )) && continue
    if (( need )); then
      need=0
      case "$valueof" in ${casePattern(variadicOptionNames(model))}) ;; *) valueof='' ;; esac
      continue
    fi
    if [[ -n $valueof ]]; then
      case "$word" in -?*) valueof='' ;; *) continue ;; esac
    fi
    case "$word" in
      --) operands=1 ;;
      ${casePattern(valueOptionNames(model))}) valueof=$word need=1 ;;
      -*) ;;
      *)
        case "\${cmdpath:+$cmdpath }$word" in
          ${keys.map(shQuote).join('|')}) cmdpath="\${cmdpath:+$cmdpath }$word" ;;
        esac ;;
    esac
  done
  return 0
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
