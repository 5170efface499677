import type { ErrorObject } from 'ajv';
import { validateWorkflowResponseEnvelope } from '../generated/validators.js';
import type { WorkflowResponseEnvelope } from '../generated/workflow-response.js';

const MAX_REPORTED = 3;

/**
 * Check a parsed response body against schemas/workflow-response.schema.json, with the ajv standalone validator
 * generated at build time (no schema compilation at run time). Returns the envelope when valid, else up to three
 * problems as `/pointer message` strings, the first failing pointer first.
 */
export function checkWorkflowEnvelope(
  body: unknown,
): { envelope: WorkflowResponseEnvelope } | { problems: string[] } {
  if (validateWorkflowResponseEnvelope(body)) return { envelope: body };
  const errors = relevant(validateWorkflowResponseEnvelope.errors ?? []);
  const problems = errors.slice(0, MAX_REPORTED).map(describe);
  if (errors.length > MAX_REPORTED) problems.push(`and ${errors.length - MAX_REPORTED} more`);
  return { problems: problems.length > 0 ? problems : ['does not match the schema'] };
}

/**
 * The errors worth showing. With allErrors, a value that fails `anyOf: [Template, null]` yields an error per branch
 * plus the anyOf itself: the anyOf adds nothing when its branches spoke, a branch that only rejected the type
 * (`must be null`) is noise when another branch got further (an error deeper inside the value), and type errors
 * left at one place merge into `must be object or null`.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const within = (path: string, other: ErrorObject) =>
    other.instancePath === path || other.instancePath.startsWith(`${path}/`);
  const deeper = (error: ErrorObject) =>
    errors.some((other) => other.instancePath.startsWith(`${error.instancePath}/`));
  const kept = errors.filter((error) => {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      return !errors.some((other) => other !== error && within(error.instancePath, other));
    }
    return error.keyword !== 'type' || !deeper(error);
  });
  const typesAt = new Map<string, string[]>();
  const merged: ErrorObject[] = [];
  for (const error of kept) {
    if (error.keyword !== 'type') {
      merged.push(error);
      continue;
    }
    const types = typesAt.get(error.instancePath);
    if (types === undefined) {
      typesAt.set(error.instancePath, typesOf(error));
      merged.push(error);
    } else {
      types.push(...typesOf(error));
    }
  }
  return merged.map((error) => {
    const types = error.keyword === 'type' ? [...new Set(typesAt.get(error.instancePath))] : [];
    return types.length > 1 ? { ...error, message: `must be ${types.join(' or ')}` } : error;
  });
}

function typesOf(error: ErrorObject): string[] {
  const { type } = error.params as { type?: unknown };
  if (typeof type === 'string') return type.split(',');
  return Array.isArray(type) ? type.map(String) : [];
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
