import { isRecord, type Json } from '../json.js';
import { badRequest } from './http-error.js';

/**
 * The create body as the service checks it, in the service's order: the request DTO (Nest ValidationPipe with
 * class-validator: one array of messages), then the command (`notificationGroupId must be a mongodb id`), then the
 * use case, step by step. It validates almost nothing inside steps; that is what makes local validation matter.
 */

export type Generation = 'v1' | 'v2';

export interface CreateRequest {
  name: string;
  notificationGroupId: string;
  steps: Json[];
  description?: string;
  tags?: string[];
  active?: boolean;
  draft?: boolean;
  critical?: boolean;
  preferenceSettings?: Json;
  data?: unknown;
}

export const CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push'] as const;
const STEP_TYPES_V1 = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'custom'];
const STEP_TYPES_V2 = [...STEP_TYPES_V1, 'tool', 'throttle', 'http_request'];
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/** class-validator's `@IsOptional()` skips null as well as undefined. */
const absent = (value: unknown): value is null | undefined => value === null || value === undefined;

/** Body → typed request, or a 400 whose message is the array the service sends. */
export function validateCreateRequest(body: unknown, generation: Generation): CreateRequest {
  const b: Json = isRecord(body) ? body : {};
  const messages = [...dtoMessages(b, generation)];
  if (messages.length > 0) throw badRequest(messages);
  // Then the command's own check.
  if (typeof b.notificationGroupId === 'string' && !OBJECT_ID.test(b.notificationGroupId))
    throw badRequest(['notificationGroupId must be a mongodb id']);
  return b as unknown as CreateRequest;
}

function* dtoMessages(b: Json, generation: Generation): Generator<string> {
  const v2 = generation === 'v2';
  if (absent(b.name)) yield 'name should not be null or undefined';
  if (typeof b.name !== 'string') yield 'name must be a string';
  else if (v2) yield* lengthMessages('name', b.name, 1, 128);

  if (absent(b.notificationGroupId)) yield 'Notification group must be provided ';
  if (typeof b.notificationGroupId !== 'string') yield 'notificationGroupId must be a string';

  if (!absent(b.tags)) {
    if (!Array.isArray(b.tags)) yield 'tags must be an array';
    else {
      if (b.tags.some((t) => typeof t !== 'string')) yield 'each value in tags must be a string';
      else if (v2) {
        if (b.tags.some((t: string) => t.length < 1))
          yield 'each value in tags must be longer than or equal to 1 characters';
        if (b.tags.some((t: string) => t.length > 64))
          yield 'each value in tags must be shorter than or equal to 64 characters';
      }
      if (v2 && new Set(b.tags).size !== b.tags.length) yield "All tags's elements must be unique";
    }
  }

  if (!absent(b.description)) {
    if (typeof b.description !== 'string') yield 'description must be a string';
    else yield* lengthMessages('description', b.description, 0, v2 ? 256 : 1000);
  }

  if (absent(b.steps)) yield 'steps should not be null or undefined';
  if (!Array.isArray(b.steps)) yield 'steps must be an array';
  else {
    if (b.steps.some((s) => !isRecord(s)))
      yield 'each value in nested property steps must be either object or array';
    if (v2 && b.steps.length > 20) yield 'steps must contain no more than 20 elements';
  }

  for (const flag of ['active', 'draft', 'critical'] as const) {
    if (!absent(b[flag]) && typeof b[flag] !== 'boolean') yield `${flag} must be a boolean value`;
  }

  if (!absent(b.data) && !isRecord(b.data)) yield 'data must be an object';

  const preferences = b.preferenceSettings;
  if (!absent(preferences)) {
    if (!isRecord(preferences)) yield 'nested property preferenceSettings must be either object or array';
    else {
      for (const channel of CHANNELS) {
        const value = preferences[channel];
        if (!absent(value) && typeof value !== 'boolean')
          yield `preferenceSettings.${channel} must be a boolean value`;
      }
    }
  }
}

function* lengthMessages(property: string, value: string, min: number, max: number): Generator<string> {
  if (value.length < min) yield `${property} must be longer than or equal to ${min} characters`;
  if (value.length > max) yield `${property} must be shorter than or equal to ${max} characters`;
}

/**
 * The use case's checks, in its order: variants need conditions, then per step: a template, a valid
 * `template.type` (the message-template command), a non-empty `cta.action`.
 */
export function checkSteps(steps: readonly Json[], generation: Generation): void {
  for (const step of steps) {
    for (const variant of arrayOf(step.variants)) {
      // Without a filter that has children, the variant could never be chosen.
      if (!arrayOf(variant.filters).some((f) => Array.isArray(f.children) && f.children.length > 0)) {
        throw badRequest(
          `Variant conditions are required, variant name ${String(variant.name)} id ${String(variant._id)}`,
        );
      }
    }
  }
  for (const step of steps) {
    checkTemplate(step.template, 'Unexpected error: message template is missing', generation);
    for (const variant of arrayOf(step.variants)) {
      checkTemplate(variant.template, 'Unexpected error: variants message template is missing', generation);
    }
  }
}

/** One template's checks: present, a known `type`, a non-empty `cta.action`. */
export function checkTemplate(template: unknown, missing: string, generation: Generation): void {
  // The service tests `!template`; a JSON value is falsy only as null, "", false or 0.
  if (!template) throw badRequest(missing);
  const type = isRecord(template) ? template.type : undefined;
  const types = generation === 'v2' ? STEP_TYPES_V2 : STEP_TYPES_V1;
  const messages: string[] = [];
  if (absent(type)) messages.push('type should not be null or undefined');
  if (typeof type !== 'string' || !types.includes(type)) {
    messages.push(`type must be one of the following values: ${types.join(', ')}`);
  }
  if (messages.length > 0) throw badRequest(messages);
  const cta = isRecord(template) ? template.cta : undefined;
  if (isRecord(cta) && cta.action === '') throw badRequest('Please provide a valid CTA action');
}

function arrayOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}
