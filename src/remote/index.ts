export { createClient, currentWorkflow, runForWorkflow } from './client.js';
export { type CommandEndingKind, commandEndingKind, endsCommand, RemoteError } from './errors.js';
export {
  type FetchObservationsInput,
  fetchObservations,
  type RemoteLookup,
  type RemoteObservation,
} from './observations.js';
export { type GroupResolution, openTargetSession, type TargetSession } from './target-session.js';
export type {
  ClientEvent,
  ClientOptions,
  CreateOptions,
  CreateResult,
  HttpMethod,
  RemoteErrorKind,
  ServiceClient,
  WorkflowResponse,
} from './types.js';
