/**
 * What Tab offers, answered from the commander program itself (as cobra's and npm's `__complete` do): the words
 * before the cursor are walked as commander parses them (the command path, options and the values they take, a
 * variadic option's list, `--`), and the word at the cursor is answered from where they lead: an option's choices,
 * the options, the subcommands, or what the next argument is. Pure: values from the project are only named
 * (`targets`, `identifiers`); the caller reads them.
 */
import type { Argument, Command, Option } from 'commander';

export type ProjectValues = 'targets' | 'identifiers';

export interface CompletionAnswer {
  /** Commands, options and choices, with their descriptions. */
  candidates: Array<{ value: string; description?: string }>;
  /** Values to read from the project as well. */
  project?: ProjectValues;
  /** Whether the shell should offer file names as well. */
  files: boolean;
  /** The config file the line names (`-c FILE`, `--config=FILE`), for the project's values. */
  config?: string;
}

/** Options and arguments whose values come from the project, or are paths. */
const PROJECT_OPTIONS: Record<string, ProjectValues> = { '--target': 'targets', '--only': 'identifiers' };
const PROJECT_ARGUMENTS: Record<string, ProjectValues | 'files'> = {
  workflow: 'identifiers',
  identifier: 'identifiers',
  paths: 'files',
};

/** What commander takes for an option rather than a value (`-` alone is a value). */
const looksLikeOption = (word: string): boolean => word.length > 1 && word.startsWith('-');
const takesValue = (option: Option): boolean => option.required || option.optional;

/** `words`: the words after the program's name, the last one the word at the cursor (empty when there is none). */
export function buildCompletionAnswer(program: Command, words: readonly string[]): CompletionAnswer {
  const current = words.at(-1) ?? '';
  let command = program;
  let operands = 0;
  let operandsOnly = false;
  /** The option the next word is the value of, and a variadic option still taking words. */
  let pending: Option | undefined;
  let variadic: Option | undefined;
  let config: string | undefined;
  const given = (option: Option, value: string) => {
    if (option.attributeName() === 'config') config = value;
  };
  // Commander reads every ancestor's options anywhere after it (the program's `-c` after `plan` too).
  const inScope = (flag: string): Option | undefined => {
    for (let at: Command | null = command; at !== null; at = at.parent) {
      const found = at.options.find((option) => option.short === flag || option.long === flag);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const readOption = (word: string): void => {
    const option = inScope(word);
    if (option !== undefined) {
      if (takesValue(option)) pending = option;
      return;
    }
    if (word.length > 2 && word[1] !== '-') {
      // `-cFILE`: a short option and its value in one word; `-ab`: short flags in one.
      const short = inScope(word.slice(0, 2));
      if (short !== undefined && takesValue(short)) given(short, word.slice(2));
      else if (short !== undefined) readOption(`-${word.slice(2)}`);
      return;
    }
    // `--config=FILE`: one value, and a variadic option takes no more.
    const equals = /^--[^=]+=/.test(word) ? word.indexOf('=') : -1;
    const long = equals === -1 ? undefined : inScope(word.slice(0, equals));
    if (long !== undefined && takesValue(long)) given(long, word.slice(equals + 1));
  };

  for (const word of words.slice(0, -1)) {
    if (operandsOnly) {
      operands++;
    } else if (pending !== undefined && !(pending.optional && looksLikeOption(word))) {
      given(pending, word);
      variadic = pending.variadic ? pending : undefined;
      pending = undefined;
    } else if (variadic !== undefined && !looksLikeOption(word)) {
      // One more value of the list.
    } else {
      pending = undefined;
      variadic = undefined;
      if (word === '--') operandsOnly = true;
      else if (looksLikeOption(word)) readOption(word);
      else {
        const sub = operands === 0 ? shownCommands(command).find((c) => c.name() === word) : undefined;
        if (sub === undefined) operands++;
        else command = sub;
      }
    }
  }

  const answer = (values: Partial<CompletionAnswer>): CompletionAnswer => ({
    candidates: [],
    files: false,
    ...(config === undefined ? {} : { config }),
    ...values,
  });
  if (pending !== undefined && !(pending.optional && looksLikeOption(current)))
    return answer(valuesOf(pending));
  if (variadic !== undefined && !looksLikeOption(current)) return answer(valuesOf(variadic));
  if (!operandsOnly && current.startsWith('-')) return answer({ candidates: optionsOf(command) });
  const subs = operands === 0 && !operandsOnly ? shownCommands(command) : [];
  if (subs.length > 0) {
    return answer({ candidates: subs.map((c) => ({ value: c.name(), description: summaryOf(c) })) });
  }
  const args = command.registeredArguments;
  const last = args.at(-1);
  const argument = args[operands] ?? (last?.variadic ? last : undefined);
  return answer(argument === undefined ? {} : valuesOf(argument));
}

/** What an option's value or an argument may be: the project's values, its choices, or a path. */
function valuesOf(item: Option | Argument): Partial<CompletionAnswer> {
  const kind = 'long' in item ? PROJECT_OPTIONS[item.long ?? ''] : PROJECT_ARGUMENTS[item.name()];
  if (kind === 'files') return { files: true };
  if (kind !== undefined) return { project: kind };
  if (item.argChoices) return { candidates: item.argChoices.map((value) => ({ value })) };
  // An option's value without choices is a path (a file or a folder); an argument without any is free text.
  return { files: 'long' in item };
}

/** The options `command` takes: its own and every ancestor's, as commander reads them; hidden ones left out. */
function optionsOf(command: Command): CompletionAnswer['candidates'] {
  const out: CompletionAnswer['candidates'] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) {
    for (const option of at.options.filter((o) => !o.hidden)) {
      for (const flag of [option.short, option.long]) {
        if (flag !== undefined) out.push({ value: flag, description: option.description });
      }
    }
  }
  return out;
}

/** The subcommands completion offers: not the hidden `__complete`. */
function shownCommands(command: Command): Command[] {
  return command.commands.filter((c) => !c.name().startsWith('__'));
}

function summaryOf(command: Command): string {
  return command.summary() || command.description().split('\n')[0] || '';
}
