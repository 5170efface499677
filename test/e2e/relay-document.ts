/**
 * The plan document a CI job saved, as `wfsync ci-relay` reads it: the verdict (`exitCode`, `needsPerson`,
 * `meaning`), the target, and an item of `action` for each identifier that needs a person.
 */
export function relayedPlan(exitCode: number, needsPerson: readonly string[], action: string): string {
  return JSON.stringify({
    exitCode,
    needsPerson,
    meaning: 'as the run said',
    target: { name: 'development' },
    items: needsPerson.map((identifier) => ({ identifier, action })),
  });
}
