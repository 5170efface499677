/**
 * `wfsync state show --format json`: the target's state file as one document under the JSON contract
 * (schemas/state-output.schema.json): `schemaVersion` in place of the file's own `version`, then `target`,
 * `baseUrl`, `workflows` (by identifier) and `pending` (interrupted creates, by identifier). Pure.
 */
import { SCHEMA_VERSION } from '../plan/schema-version.js';
import type { StateFile } from '../state/types.js';
import { jsonText } from './channel.js';

export function renderStateJson(state: StateFile): string {
  const { version: _file, target, baseUrl, workflows, pending } = state;
  return `${jsonText({ schemaVersion: SCHEMA_VERSION, target, baseUrl, workflows, pending })}\n`;
}
