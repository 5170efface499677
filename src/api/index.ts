/**
 * wfsync's programmatic API: `import { validate, plan, sync } from 'wfsync'`. The same options as the CLI's flags
 * (camelCase), results shaped exactly like the CLI's `--format json` documents (the same builders), typed errors
 * instead of exit codes. Nothing here prints, exits the process, or reads `process.env` beyond the `env` option's
 * default.
 */
export type { ApplyEvent } from '../apply/events.js';
export type { Diagnostic } from '../diagnostic.js';
export { ConfigError, UsageError, WfsyncError, type WfsyncErrorCode } from '../errors.js';
export { ExitCode } from '../exit-codes.js';
export type { WorkflowDefinition } from '../generated/workflow.js';
export type { ClientEvent } from '../remote/index.js';
export { RemoteError } from '../remote/index.js';
export { VERSION } from '../version.js';
export type {
  DiagnosticDocument,
  PlanDocument,
  PlanItemDocument,
  SyncDocument,
  SyncOutcomeDocument,
  ValidateDocument,
} from './documents.js';
export { AbortError } from './errors.js';
export type { ProjectApiOptions, RunHooks, TargetApiOptions } from './options.js';
export { type PlanOptions, type PlanResult, plan } from './plan.js';
export { type LoadedProject, type LoadProjectOptions, loadProject } from './project.js';
export { type SyncOptions, type SyncRunResult, sync } from './sync.js';
export { type ValidateOptions, type ValidateResult, validate } from './validate.js';
