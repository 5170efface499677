/**
 * The lines a definition's document spans in its file, read from the text alone: from the first line that is not
 * blank, a comment, a directive (`%YAML`) or a document marker (`---`), to the last line that is not blank, a
 * comment at column 0 or the end marker (`...`). What `locate('')` answers for a block mapping, without building
 * the YAML tree a lazy `locate` parses on its first call (a plan placing 2,000 creates would build 2,000). Pure.
 *
 * An indented `#` line is kept: it may be the text of a block scalar (`content: |`), which a root mapping's values
 * indent; a comment at column 0 cannot be.
 */
export function documentLines(text: string): { line: number; endLine: number } | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const content = (line: string, leading: boolean): boolean => {
    const trimmed = line.trimEnd();
    if (trimmed.trim() === '') return false;
    if (trimmed.startsWith('#')) return false;
    if (leading && (trimmed.startsWith('%') || /^---\s*(?:#.*)?$/.test(trimmed))) return false;
    if (!leading && /^\.\.\.\s*(?:#.*)?$/.test(trimmed)) return false;
    if (leading && /^\s+#/.test(trimmed)) return false;
    return true;
  };
  const first = lines.findIndex((line) => content(line, true));
  if (first === -1) return undefined;
  let last = lines.length - 1;
  while (last > first && !content(lines[last]!, false)) last--;
  return { line: first + 1, endLine: last + 1 };
}
