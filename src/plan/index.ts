/** PURE: (desired definitions, state, what the service returned) → Plan; create bodies. */

export { canonicalJson } from '../json.js';
export { buildPlan, type PlanInput } from './build-plan.js';
export { compareWorkflow, type WorkflowComparison } from './compare.js';
export { buildCreateBody, resolveGroup, type TargetGroups } from './create-body.js';
export { buildDesired, buildOnlyFilter, referencedGroups } from './desired.js';
export { IGNORED_FIELDS } from './ignored-fields.js';
export { remoteVersionOf } from './remote-version.js';
export type * from './types.js';
