import type { WorkflowResponse } from '../generated/workflow-response.js';

/**
 * Which version of a workflow the service held when the plan was made: `sync --plan` refuses a plan whose items
 * were seen at another version. Every save moves `updatedAt` (and `__v` on most saves).
 */
export function remoteVersionOf(actual: WorkflowResponse): string {
  return `${actual._id}@${actual.updatedAt ?? ''}#${actual.__v ?? ''}`;
}
