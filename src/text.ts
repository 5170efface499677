/** Text basics shared by every area. Pure. */

/** `2 errors`, `1 warning`, `0 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Code-unit order: the same on every machine, whatever its locale (and the order sortDiagnostics uses). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/*
 * "Did you mean": the allowed name closest to what the user wrote (schema errors, rule codes, file names).
 * Transpositions count as one edit (`emial` → `email`), and case or separators alone never block a match
 * (`should_stop_on_fail` → `shouldStopOnFail`).
 */

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
export function typoDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * The candidate the input most likely meant, or undefined when none is close. Ties go to the earlier candidate,
 * so the schema's property order decides and the result is stable.
 */
export function suggestName(input: string, candidates: readonly string[]): string | undefined {
  const needle = normalize(input);
  if (needle === '') return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const distance = typoDistance(needle, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Short names tolerate one typo, longer ones two: beyond that a suggestion is more confusing than helpful.
  const limit = needle.length <= 4 ? 1 : 2;
  if (bestDistance <= limit) return best;
  // An abbreviation of exactly one candidate (`warn` → `warning`) is a likely meaning too.
  const extended = candidates.filter(
    (c) => needle.length >= 3 && normalize(c).length > needle.length && normalize(c).startsWith(needle),
  );
  return extended.length === 1 ? extended[0] : undefined;
}
