import type { WorkflowResponse } from '../generated/workflow-response.js';

/**
 * Which version of a workflow the service holds: `<_id>@<updatedAt>#<__v>`. Every save on the service moves
 * `updatedAt` (and `__v` on most saves), so an equal version means nobody changed the workflow in between: `sync --plan`
 * refuses a plan whose items were seen at another version, and state records the version each entry was last seen at.
 * Pure.
 */
export function remoteVersionOf(actual: WorkflowResponse): string {
  return `${actual._id}@${actual.updatedAt ?? ''}#${actual.__v ?? ''}`;
}
