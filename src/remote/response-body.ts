import type { ErrorObject } from 'ajv';
import { validateWorkflowResponseEnvelope } from '../generated/response-validators.js';
import type { WorkflowResponseEnvelope } from '../generated/workflow-response.js';
import { isRecord } from '../json.js';
import { pruneSchemaErrors } from '../validate/schema-prune.js';
import type { ReceivedResponse } from './transport.js';

/** Reading a response's body: an error body leniently, a workflow body against its schema. */

/** What an error response says, read leniently: a proxy's page must still give a clear message. */
export interface ErrorBody {
  /** `message` (a string or an array), or a short plain-text body. */
  messages: string[];
  /** 422 `errors: {field: {messages[]}}`, flattened to `field: message` lines. */
  fieldMessages: string[];
  errorId: string | undefined;
  /** The body was JSON (an object), as the service sends. */
  json: boolean;
  html: boolean;
  /** Why a non-empty body labelled JSON does not parse (usually: cut short); undefined otherwise. */
  invalidJson: string | undefined;
}

const MAX_TEXT = 300;

export function readErrorBody(response: ReceivedResponse): ErrorBody {
  const text = response.body.toString('utf8');
  const result: ErrorBody = {
    messages: [],
    fieldMessages: [],
    errorId: undefined,
    json: false,
    html: isHtml(response),
    invalidJson: undefined,
  };
  if (result.html) return result;
  let parsed: unknown;
  try {
    // Plain JSON.parse, no depth limit: only the top two levels are read below, without recursion, so a deeply
    // nested error body cannot overflow anything.
    parsed = JSON.parse(text);
  } catch (error) {
    if (text.trim() !== '' && isJsonMediaType(mediaType(response.header('content-type')))) {
      result.invalidJson = (error as Error).message;
    }
    const line = text.trim().split('\n')[0]?.trim() ?? '';
    // A cut-short body is no message: its first line would be half a JSON object.
    if (line !== '' && response.bodyFailure === undefined && result.invalidJson === undefined) {
      result.messages.push(clip(line));
    }
    return result;
  }
  if (!isRecord(parsed)) return result;
  result.json = true;
  const { message, errors, errorId } = parsed;
  if (typeof message === 'string') result.messages.push(message);
  else if (Array.isArray(message))
    result.messages.push(...message.filter((m): m is string => typeof m === 'string'));
  if (typeof errorId === 'string') result.errorId = errorId;
  if (isRecord(errors)) {
    for (const [field, value] of Object.entries(errors)) {
      const fieldMessages = isRecord(value) && Array.isArray(value.messages) ? value.messages : [value];
      for (const m of fieldMessages) {
        if (typeof m !== 'string') continue;
        result.fieldMessages.push(m.startsWith(field) ? m : `${field}: ${m}`);
      }
    }
  }
  return result;
}

/** HTML by content type, or by the first characters when the type is missing or wrong. */
export function isHtml(response: ReceivedResponse): boolean {
  const type = mediaType(response.header('content-type'));
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  const start = response.body.subarray(0, 256).toString('utf8').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  return contentType.split(';')[0]?.trim().toLowerCase();
}

export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || type.endsWith('+json'));
}

/** Messages for a one-line summary: `a; b; c`, clipped. */
export function summarize(messages: readonly string[]): string {
  return clip(messages.join('; '));
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

const MAX_REPORTED = 3;

/**
 * Check a parsed response body against schemas/workflow-response.schema.json, with the ajv standalone validator
 * generated at build time (no schema compilation at run time). Returns the envelope when valid, else up to three
 * problems as `/pointer message` strings, the first failing pointer first. The validator recurses (a step's
 * variants are steps): `body` must come from parseJson, within MAX_JSON_DEPTH.
 */
export function checkWorkflowEnvelope(
  body: unknown,
): { envelope: WorkflowResponseEnvelope } | { problems: string[] } {
  if (validateWorkflowResponseEnvelope(body)) return { envelope: body };
  // The schema's one anyOf (a template or null) would otherwise add noise: pruned as definitions' errors are.
  const errors = pruneSchemaErrors(validateWorkflowResponseEnvelope.errors ?? []);
  return {
    problems: schemaProblems(errors, (error) => {
      // pruneSchemaErrors merges the types the alternatives allow into one error (`must be object or null`).
      const { type } = error.params as { type?: unknown };
      return Array.isArray(type) ? `must be ${type.join(' or ')}` : (error.message ?? 'is invalid');
    }),
  };
}

/** Up to three `/pointer message` strings, the first failing pointer first. ajv's messages name the rule, never the value. */
export function schemaProblems(
  errors: readonly ErrorObject[],
  message = (error: ErrorObject) => error.message ?? 'is invalid',
): string[] {
  const problems = errors
    .slice(0, MAX_REPORTED)
    .map((error) => `${error.instancePath === '' ? '(the body)' : error.instancePath} ${message(error)}`);
  if (errors.length > MAX_REPORTED) problems.push(`and ${errors.length - MAX_REPORTED} more`);
  return problems.length > 0 ? problems : ['does not match the schema'];
}
