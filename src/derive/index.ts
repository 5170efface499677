/** What the service derives from a workflow: slugs, Handlebars variables, the trigger. Pure. */
export { scanTemplate } from './handlebars.js';
export { BUILT_IN_HELPERS, isSystemVariable, SYSTEM_VARIABLE_PREFIXES } from './names.js';
export { scanTemplateAsServer } from './server-scan.js';
export { slugifyV1, slugifyV2 } from './slug.js';
export { deriveTrigger, textSourcesOfStep } from './trigger.js';
export type * from './types.js';
