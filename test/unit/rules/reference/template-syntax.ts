// src/validate/rules/template-syntax.ts was not changed by the allocation work (commit 8e3e79f): the oracle uses it as
// it is.
export { templateSyntax } from '../../../../src/validate/rules/template-syntax.js';
