export { createClient, currentWorkflow, runForWorkflow } from './client.js';
export { findCreated } from './create-workflow.js';
export { commandEndingKind, endsCommand, RemoteError } from './errors.js';
export { fetchObservations, type RemoteLookup, type RemoteObservation } from './observations.js';
export { fetchPreflightFacts, type PreflightFacts } from './preflight.js';
export { guarded } from './session.js';
export { openTargetSession, type TargetGroups, type TargetSession } from './target-session.js';
export type {
  ClientEvent,
  ClientOptions,
  CreateOptions,
  CreateResult,
  CurrentEnvironment,
  ListedWorkflow,
  NotificationGroup,
  Page,
  RemoteErrorKind,
  ServiceChange,
  ServiceClient,
  WorkflowResponse,
} from './types.js';
