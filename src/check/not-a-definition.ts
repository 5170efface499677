/**
 * A YAML file in a folder definitions are read from that is plainly something else (a Kubernetes manifest, a
 * docker-compose file): one clear finding that says so and how to leave it out, instead of a schema error per key.
 * Never a silent skip: the file is in a listed folder, so the project says it is a definition until `exclude` says not.
 */

import type { ParseResult } from '../definitions/types.js';
import { type Diagnostic, FILE_START } from '../diagnostic.js';
import { isRecord } from '../json.js';

/** The top-level keys of a workflow definition (schemas/workflow.schema.json). */
const WORKFLOW_KEYS = new Set([
  'name',
  'description',
  'tags',
  'active',
  'critical',
  'preferenceSettings',
  'notificationGroupId',
  'data',
  'steps',
  'triggers',
]);

/** A top-level `key:` at the start of a line (for a file of several documents, which parses to no value). */
const TOP_LEVEL_KEY = /^([A-Za-z_$][\w$.-]*)[ \t]*:(?=[ \t]|$)/gm;

/**
 * The finding when `parsed` is not a workflow definition at all: a mapping with none of a workflow's keys, or a file
 * of several YAML documents whose keys are none of a workflow's. Undefined otherwise (a definition with mistakes is
 * one: the schema says what is wrong with it).
 */
export function notADefinition(parsed: ParseResult, file: string): Diagnostic | undefined {
  const keys = topLevelKeys(parsed);
  if (keys === undefined || keys.length === 0 || keys.some((key) => WORKFLOW_KEYS.has(key))) return undefined;
  const message =
    `not a workflow definition: ${looksLike(keys)}, with none of a workflow's keys (name, steps, triggers). ` +
    'It is in a folder wfsync reads definitions from: add it (or its folder) to `exclude` in wfsync.config.yaml, ' +
    'or list only the folders that hold definitions in `workflowsDir`.';
  return { code: 'not-a-definition', severity: 'error', message, file, pointer: '', ...FILE_START };
}

function topLevelKeys(parsed: ParseResult): string[] | undefined {
  const value = parsed.definition?.value;
  if (isRecord(value)) return Object.keys(value);
  const several =
    parsed.definition === undefined &&
    parsed.diagnostics.length > 0 &&
    parsed.diagnostics.every((d) => d.code === 'yaml-multiple-documents');
  if (!several || parsed.text === undefined) return undefined;
  return [...new Set([...parsed.text.matchAll(TOP_LEVEL_KEY)].map((m) => m[1]!))];
}

/** What the keys suggest the file is, for the message. */
function looksLike(keys: readonly string[]): string {
  const has = (key: string) => keys.includes(key);
  if (has('apiVersion') && has('kind')) return 'it looks like a Kubernetes manifest (apiVersion, kind)';
  if (has('services') && (has('version') || has('volumes') || has('networks') || keys.length <= 4))
    return 'it looks like a Docker Compose file (services)';
  if (has('jobs') && has('on')) return 'it looks like a GitHub Actions workflow (on, jobs)';
  if (has('stages') || has('include') || has('variables'))
    return 'it looks like a CI pipeline (stages, include, variables)';
  const shown =
    keys
      .slice(0, 4)
      .map((key) => (key.length > 40 ? `${key.slice(0, 40)}…` : key))
      .join(', ') + (keys.length > 4 ? ', …' : '');
  return `its top-level keys are ${shown}`;
}
