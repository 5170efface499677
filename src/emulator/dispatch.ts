import { applyChange, applyChanges, countChanges, listChanges } from './changes-routes.js';
import { type EmulatedEnvironment, environmentAnswer, groupsAnswer } from './environments.js';
import { getWorkflow, type ServiceState } from './handlers.js';
import type { Route } from './routes.js';
import { updateWorkflow } from './update-workflow.js';
import { changeStatus, deleteWorkflow, listWorkflows } from './workflow-lifecycle.js';

/** A request past auth, guards, rate limiting and processing time. Creates go through idempotency instead. */
export interface RoutedRequest {
  route: Route;
  query: URLSearchParams;
  body: unknown;
  /** The key's environment. */
  environment: EmulatedEnvironment;
}

/** Route → [status, body]; throws the service's errors (EmulatorHttpError). */
export function dispatch(state: ServiceState, request: RoutedRequest): [number, unknown] {
  const { route, environment } = request;
  const environmentId = environment._id;
  switch (route.kind) {
    case 'get':
      return [200, getWorkflow(state, environmentId, route.workflowId)];
    case 'list':
      return [200, listWorkflows(state, environmentId, request.query)];
    case 'update':
      return [200, updateWorkflow(state, environmentId, route.workflowId, request.body)];
    case 'status':
      return [200, changeStatus(state, environmentId, route.workflowId, request.body)];
    case 'delete':
      return [200, deleteWorkflow(state, environmentId, route.workflowId)];
    case 'environment':
      return [200, environmentAnswer(environment, state.identity.creatorId)];
    case 'groups':
      return [200, groupsAnswer(environment)];
    case 'changes':
      return [200, listChanges(state, environmentId, request.query)];
    case 'changes-count':
      return [200, countChanges(state, environmentId)];
    case 'change-apply':
      return [201, applyChange(state, environmentId, route.changeId)];
    case 'changes-bulk-apply':
      return [201, applyChanges(state, environmentId, request.body)];
    case 'create':
      throw new Error('creates go through the idempotency layer');
  }
}
