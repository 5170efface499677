/**
 * `wfsync pull` carried out: per workflow, the included files, then the definition (which must never refer to a
 * file not yet there), then its state entry. Everything it changes goes through the calls it is given.
 */
import type { StateEntry } from '../state/types.js';
import type { PullPlan } from './build-plan.js';

export interface PullApplyDeps {
  writeFile(path: string, text: string): Promise<void>;
  store: { recordWorkflow(identifier: string, entry: StateEntry): Promise<void> };
  /** The hash state records of a create body (what plan compares). */
  hash(body: unknown): string;
  now(): Date;
}

export async function applyPullPlan(plan: PullPlan, deps: PullApplyDeps): Promise<void> {
  for (const item of plan.items) {
    if ('failed' in item) continue;
    for (const include of item.includes) await deps.writeFile(include.path, include.text);
    if (item.text !== undefined) await deps.writeFile(item.path, item.text);
    if (item.body === undefined) continue;
    await deps.store.recordWorkflow(item.identifier, {
      id: item.id,
      hash: deps.hash(item.body),
      origin: 'adopted',
      file: item.file,
      recordedAt: deps.now().toISOString(),
    });
  }
}
