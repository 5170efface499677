// Scores from a Stryker JSON report (mutation-testing-report-schema), per file and per target glob.
import { relative } from 'node:path';
import picomatch from 'picomatch';

/** Stryker's mutation score counts: detected (killed, timed out) over valid (detected, survived, not covered). */
export function tally(mutants) {
  const t = { detected: 0, valid: 0, survived: 0, noCoverage: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed' || m.status === 'Timeout') t.detected++;
    else if (m.status === 'Survived') t.survived++;
    else if (m.status === 'NoCoverage') t.noCoverage++;
    else continue; // CompileError, RuntimeError, Ignored: not valid mutants
    t.valid++;
  }
  return t;
}

/** Percentage; a file without valid mutants scores 100 (nothing to kill). */
export function score(t) {
  return t.valid === 0 ? 100 : (100 * t.detected) / t.valid;
}

/** Each target of a batch: its glob, the score reached over the files it matches, and whether it is met. */
export function checkTargets(report, targets, cwd = process.cwd()) {
  const files = Object.entries(report.files).map(([path, f]) => [relative(cwd, path), f.mutants]);
  return targets.map((target) => {
    const match = picomatch(target.glob);
    const matched = files.filter(([path]) => match(path));
    const t = tally(matched.flatMap(([, mutants]) => mutants));
    const reached = score(t);
    return { ...target, files: matched.length, reached, met: matched.length > 0 && reached >= target.score };
  });
}
