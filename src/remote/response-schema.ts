import type { ErrorObject } from 'ajv';
import { validateWorkflowResponseEnvelope } from '../generated/validators.js';
import type { WorkflowResponseEnvelope } from '../generated/workflow-response.js';

const MAX_REPORTED = 3;

/**
 * Check a parsed response body against schemas/workflow-response.schema.json (compiled at gen time). Returns
 * the envelope when valid, else up to three problems as `/pointer message` strings.
 */
export function checkWorkflowEnvelope(
  body: unknown,
): { envelope: WorkflowResponseEnvelope } | { problems: string[] } {
  if (validateWorkflowResponseEnvelope(body)) return { envelope: body };
  const errors = validateWorkflowResponseEnvelope.errors ?? [];
  const problems = errors.slice(0, MAX_REPORTED).map(describe);
  if (errors.length > MAX_REPORTED) problems.push(`and ${errors.length - MAX_REPORTED} more`);
  return { problems: problems.length > 0 ? problems : ['does not match the schema'] };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(the body)' : error.instancePath;
  const params = error.params as { allowedValues?: unknown; additionalProperty?: unknown };
  const extra =
    error.keyword === 'enum'
      ? ` (${JSON.stringify(params.allowedValues)})`
      : error.keyword === 'additionalProperties'
        ? ` (${String(params.additionalProperty)})`
        : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}
