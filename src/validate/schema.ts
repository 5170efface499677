/**
 * ajv errors → Diagnostics: one clear message per real problem, with a stable code and the position of the node
 * the user has to change. The validators are ajv standalone code generated from schemas/ (src/generated). Pure.
 */
import type { ErrorObject } from 'ajv';
import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic, Span } from '../diagnostic.js';
import { sortDiagnostics } from '../diagnostic.js';
import { validateWfsyncConfig, validateWorkflowDefinition } from '../generated/validators.js';
import { isRecord } from '../json.js';
import { valueAt } from './rules/walk.js';
import { messageFor, type SchemaMessage } from './schema-keywords.js';
import type { DocumentKind } from './schema-messages.js';
import { pruneSchemaErrors } from './schema-prune.js';

/** Anything that validates like an ajv function: returns false and leaves `errors` behind. */
export interface SchemaValidatorLike {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A document parsed with positions: a definition, or wfsync.config.yaml. */
export type SchemaDocument = Pick<LoadedDefinition, 'file' | 'value' | 'locate'>;

/** `kind` decides wording ("the workflow definition" / "the config file") and the special cases of each. */
export function buildSchemaDiagnostics(
  validate: SchemaValidatorLike,
  { value, file, locate }: SchemaDocument,
  kind: DocumentKind = 'definition',
): Diagnostic[] {
  if (validate(value)) return [];
  const errors = pruneSchemaErrors(validate.errors ?? []);
  const diagnostics = errors.map((error) => {
    const message = messageFor(error, { kind, root: value });
    return {
      code: message.code,
      severity: 'error' as const,
      message: message.text,
      file,
      pointer: message.pointer,
      ...spanOf(message, value, locate),
    };
  });
  return sortDiagnostics(diagnostics);
}

/**
 * Additional properties and bad property names point at the key; a missing property at the object that lacks it
 * (its key when it has one); everything else at the offending value.
 */
function spanOf(message: SchemaMessage, root: unknown, locate: LoadedDefinition['locate']): Span {
  const { pointer, target } = message.at;
  if (target === 'owner') return locate(pointer, hasKey(root, pointer) ? 'key' : 'value');
  return locate(pointer, target);
}

/** Whether the node at `pointer` is the value of a mapping key (not the root, not an array item). */
function hasKey(root: unknown, pointer: string): boolean {
  return pointer !== '' && isRecord(valueAt(root, pointer.slice(0, pointer.lastIndexOf('/'))));
}

/** Schema diagnostics of one workflow definition file. */
export function validateDefinitionSchema(definition: SchemaDocument): Diagnostic[] {
  return buildSchemaDiagnostics(validateWorkflowDefinition, definition);
}

/** Schema diagnostics of wfsync.config.yaml (parsed with positions like a definition). */
export function validateConfigSchema(config: SchemaDocument): Diagnostic[] {
  return buildSchemaDiagnostics(validateWfsyncConfig, config, 'config');
}
