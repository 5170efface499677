import type { ServiceClient } from '../remote/index.js';

/** The client `plan` uses: any attempt to write is a bug, and fails loudly instead of reaching the service. */
export function readOnlyClient(client: ServiceClient): ServiceClient {
  const refuse = () => Promise.reject(new Error('internal error: plan is read-only and must never write'));
  const refuseApply = () =>
    Promise.reject(new Error('internal error: plan is read-only and must never promote'));
  // createClient's operations are the object's own properties: the copy keeps them, bound to their session.
  return {
    ...client,
    createWorkflow: refuse,
    updateWorkflow: refuse,
    setWorkflowStatus: refuse,
    deleteWorkflow: refuse,
    applyChange: refuseApply,
    applyChanges: refuseApply,
  };
}
