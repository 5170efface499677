/** PURE: (desired definitions, state, what the service returned) → Plan; create bodies; pull conversion. */
export { buildPlan, type PlanInput } from './build-plan.js';
export { canonicalJson } from './canonical-json.js';
export { compareWorkflow, type WorkflowComparison } from './compare.js';
export { buildCreateBody, resolveGroup, type TargetGroups } from './create-body.js';
export { IGNORED_FIELDS } from './ignored-fields.js';
export { buildDefinitionFromRemote, type PulledDefinition, SCHEMA_MODELINE } from './pull.js';
export { remoteVersionOf } from './remote-version.js';
export type * from './types.js';
