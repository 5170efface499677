/**
 * The examples of a docs page (README.md and the others, test/helpers/doc-pages.ts) as data, for readme.test.ts:
 * fenced blocks with their section and the
 * `<!-- readme-test: … -->` directives right before them, shell commands with the exit codes their comments allow,
 * and `$ wfsync …` transcripts with the output lines they show. Pure: no I/O.
 */

export type Directive =
  | { kind: 'skip'; reason: string }
  | { kind: 'project'; template: 'examples' | 'empty' | 'init' }
  | { kind: 'replace'; file: string; from: string; to: string }
  | { kind: 'service-edit'; identifier: string; pointer: string; value: unknown }
  | { kind: 'run'; command: Command }
  | { kind: 'write'; file: string };

export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  /** The `## ` heading the block is under ('' before the first). */
  section: string;
  lang: string;
  body: string;
  directives: Directive[];
}

export interface Command {
  /** The command without its comment or a trailing `&`, continuation lines joined. */
  text: string;
  /** Exit codes allowed: those a `# exit N` / `# exit N or M` comment names, else 0. */
  exits: number[];
  /** Ends in `&`: started in the background, stopped (SIGINT) after the block. */
  background: boolean;
}

export interface TranscriptStep {
  command: Command;
  /** The output lines shown under the command (blank and `…` lines dropped). */
  expected: string[];
}

const DIRECTIVE_START = /^<!-- readme-test:?/;

/** `page` names the page in errors. */
export function extractBlocks(markdown: string, page = 'README.md'): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${page}:${start + 1}: a fence that is never closed`);
    blocks.push({
      line: start + 1,
      section,
      lang: fence[1]!,
      body: `${body.join('\n')}\n`,
      directives: directivesBefore(lines, start),
    });
  }
  return blocks;
}

/** Line numbers (1-based) of readme-test comments that do not end right before a fence: a mistake. */
export function strayDirectives(markdown: string): number[] {
  const lines = markdown.split('\n');
  const stray: number[] = [];
  lines.forEach((line, i) => {
    if (!DIRECTIVE_START.test(line)) return;
    let end = i;
    while (end < lines.length && !lines[end]!.includes('-->')) end++;
    if (!/^```/.test(lines[end + 1] ?? '')) stray.push(i + 1);
  });
  return stray;
}

function directivesBefore(lines: readonly string[], fence: number): Directive[] {
  const last = lines[fence - 1] ?? '';
  if (!last.trimEnd().endsWith('-->')) return [];
  let first = fence - 1;
  while (first > 0 && !lines[first]!.includes('<!--')) first--;
  if (!DIRECTIVE_START.test(lines[first]!)) return [];
  const text = lines
    .slice(first, fence)
    .join('\n')
    .replace(DIRECTIVE_START, '')
    .replace(/-->\s*$/, '');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map(parseDirective);
}

export function parseDirective(line: string): Directive {
  const [kind = '', rest = ''] = splitFirstWord(line);
  if (kind === 'skip') {
    const reason = /^\((.+)\)$/.exec(rest)?.[1];
    if (!reason) throw new Error(`skip needs a reason in parentheses: ${line}`);
    return { kind, reason };
  }
  if (kind === 'run') return { kind, command: parseCommandLine(rest) };
  const args = tokenize(rest);
  if (kind === 'project' && args.length === 1 && ['examples', 'empty', 'init'].includes(args[0] as string))
    return { kind, template: args[0] as 'examples' | 'empty' | 'init' };
  if (kind === 'replace' && args.length === 3) {
    const [file, from, to] = args as [string, string, string];
    return { kind, file, from, to };
  }
  if (kind === 'service-edit' && args.length === 3 && String(args[1]).startsWith('/')) {
    const [identifier, pointer] = args as [string, string];
    return { kind, identifier, pointer, value: args[2] };
  }
  if (kind === 'write' && args.length === 1) return { kind, file: String(args[0]) };
  throw new Error(`unknown readme-test directive: ${line}`);
}

function splitFirstWord(line: string): [string, string] {
  const match = /^(\S+)\s*(.*)$/.exec(line.trim());
  return [match?.[1] ?? '', match?.[2] ?? ''];
}

/** Words, or JSON values where a word starts with `"`, `{`, `[` or a digit. */
function tokenize(text: string): unknown[] {
  const tokens: unknown[] = [];
  let rest = text.trim();
  while (rest !== '') {
    const json = /^("(?:[^"\\]|\\.)*"|-?\d[\d.]*|true|false|null)(?=\s|$)/.exec(rest);
    const word = json ? undefined : /^\S+/.exec(rest);
    const taken = (json ?? word)![0];
    tokens.push(json ? JSON.parse(taken) : taken);
    rest = rest.slice(taken.length).trimStart();
  }
  return tokens;
}

/** Every command of an `sh` block: comments dropped, `\` continuations joined. */
export function parseShell(body: string): Command[] {
  return joinContinuations(body.split('\n'))
    .map(parseCommandLine)
    .filter((command) => command.text !== '');
}

function joinContinuations(lines: readonly string[]): string[] {
  const joined: string[] = [];
  let pending = '';
  for (const line of lines) {
    if (/\\\s*$/.test(line)) pending += `${line.replace(/\\\s*$/, '').trimEnd()} `;
    else {
      joined.push(pending + (pending ? line.trim() : line));
      pending = '';
    }
  }
  if (pending) joined.push(pending);
  return joined;
}

export function parseCommandLine(line: string): Command {
  const { code, comment } = splitComment(line);
  let text = code.trim();
  const background = /[^&]&$/.test(text);
  if (background) text = text.slice(0, -1).trimEnd();
  const listed = /\bexit (\d+(?:\s*(?:,|or)\s*\d+)*)/.exec(comment)?.[1];
  const exits = listed ? listed.split(/\s*(?:,|or)\s*/).map(Number) : [0];
  return { text, exits, background };
}

/** A `#` that starts a word outside quotes begins a comment. */
function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!)))
      return { code: line.slice(0, i), comment: line.slice(i + 1) };
  }
  return { code: line, comment: '' };
}

/** A block is a transcript when its first line is a `$ ` command; it may hold several. */
export function isTranscript(block: Block): boolean {
  return block.body.startsWith('$ ');
}

export function parseTranscript(body: string): TranscriptStep[] {
  const steps: TranscriptStep[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('$ ')) {
      // Only a command continues on the next line; output lines are taken as they are.
      const command = [line.slice(2)];
      while (/\\\s*$/.test(command.at(-1)!) && i + 1 < lines.length) command.push(lines[++i]!);
      steps.push({ command: parseCommandLine(joinContinuations(command).join(' ')), expected: [] });
    } else if (line.trim() !== '' && line.trim() !== '…') steps.at(-1)?.expected.push(line);
  }
  return steps;
}

/** Ids, clock times and timestamps differ between runs; trailing spaces do not matter. */
export function normalizeLine(line: string): string {
  return line
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, '<timestamp>')
    .replace(/\b[0-9a-f]{24}\b/g, '<id>')
    .replace(/\b\d\d:\d\d:\d\d\b/g, '<time>')
    .trimEnd();
}

/**
 * Undefined when every expected line appears in the real output: in order in stdout, or anywhere in stderr
 * (errors and progress go there). Otherwise the first line that does not.
 */
export function findMissingLine(
  expected: readonly string[],
  stdout: string,
  stderr: string,
): string | undefined {
  const out = stdout.split('\n').map(normalizeLine);
  const err = new Set(stderr.split('\n').map(normalizeLine));
  let cursor = 0;
  for (const line of expected.map(normalizeLine)) {
    const at = out.indexOf(line, cursor);
    if (at >= 0) cursor = at + 1;
    else if (!err.has(line)) return line;
  }
  return undefined;
}
