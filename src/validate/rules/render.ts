/**
 * validate's render checks: what the renderer can tell from the templates and the generated sample data without
 * rendering (src/render checkWorkflow): unknown helpers, wrong helper arity, date patterns date-fns refuses, values
 * that render empty with the sample, and the service's surprises. Computed once per workflow for all five rules.
 */
import { checkWorkflow, type RenderFinding, sampleData } from '../../render/index.js';
import { memoizeLast } from './last-memo.js';
import { findingMessage, locateFinding } from './render-diagnostics.js';
import type { Rule, RuleContext } from './types.js';

const findingsOf = memoizeLast((workflow: RenderContextKey) => checkWorkflow(workflow, sampleData(workflow)));

type RenderContextKey = RuleContext['workflow'];

function reportCode(ctx: RuleContext, code: string): void {
  const findings: readonly RenderFinding[] = findingsOf(ctx.workflow);
  for (const finding of findings) {
    if (finding.code !== code) continue;
    ctx.report(finding.pointer, findingMessage(finding), { span: locateFinding(ctx.definition, finding) });
  }
}

function renderRule(code: string, defaultSeverity: Rule['defaultSeverity'], description: string): Rule {
  return { code, defaultSeverity, description, check: (ctx) => reportCode(ctx, code) };
}

export const renderHelperUnknown = renderRule(
  'render-helper-unknown',
  'error',
  'a template calls a helper the service does not register: the step fails to render (`Missing helper`)',
);

export const renderHelperArity = renderRule(
  'render-helper-arity',
  'error',
  'a service helper is given the wrong number of arguments, or a block helper is used inline: the step fails or prints nonsense',
);

export const renderDateFormat = renderRule(
  'render-date-format',
  'error',
  'a `dateFormat` pattern date-fns 2 refuses (`YYYY`, `DD`, an unquoted letter): the step fails to render',
);

export const renderEmpty = renderRule(
  'render-empty',
  'warning',
  'a value renders empty (or a block iterates nothing) with the sample data generated from the workflow',
);

export const renderSurprise = renderRule(
  'render-surprise',
  'warning',
  'the service renders something other than it seems: a path inside a gt/gte/lt/lte/eq/ne block (empty), `decimalLength=0` (2 decimals)',
);
