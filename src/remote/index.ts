export { createClient } from './client.js';
export { type Endpoint, isLoopbackHost, parseBaseUrl } from './endpoint.js';
export { redact } from './redact.js';
export { RemoteError, type RemoteErrorKind } from './remote-error.js';
export type {
  ClientEvent,
  ClientOptions,
  CreateOptions,
  CreateResult,
  HttpMethod,
  ServiceClient,
  WorkflowResponse,
} from './types.js';
