/** Text basics shared by every area. Pure. */

/** `2 errors`, `1 warning`, `0 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Code-unit order: the same on every machine, whatever its locale (and the order sortDiagnostics uses). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
