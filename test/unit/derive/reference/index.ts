// The derive module as it was before the allocation work (commit 8e3e79f): frozen copies of what changed, the rest
// from src. The oracle for the differential tests. Change it only along with a deliberate change of behaviour in src.
export { scanTemplate } from '../../../../src/derive/handlebars.js';
export { slugifyV1, slugifyV2 } from '../../../../src/derive/slug.js';
export { isSystemVariable } from './names.js';
export { scanTemplateAsServer } from './server-scan.js';
export { deriveTrigger, textSourcesOfStep } from './trigger.js';
