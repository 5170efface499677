import fc from 'fast-check';

/**
 * fc.assert for properties whose failing input can be a whole file: the message starts and ends with the line that
 * replays the failure (`FC_SEED=… FC_PATH=…`, both read here), so no cut of a long counterexample can lose it; the
 * property's own error is the cause, which vitest prints after it. Run the one test (`-t`) with both variables set
 * to replay the shrunk failing input first.
 */
export function assertProperty<Ts extends [unknown, ...unknown[]]>(
  property: fc.IProperty<Ts>,
  params: fc.Parameters<Ts> = {},
): void {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  const details = fc.check(property, {
    ...params,
    ...(seed === undefined ? {} : { seed: Number(seed) }),
    ...(path === undefined ? {} : { path }),
  });
  if (!details.failed) return;
  const replay = `replay with FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath}`;
  throw new Error(`${replay}\n${fc.defaultReportMessage(details)}\n${replay}`, {
    cause: details.errorInstance,
  });
}
