/**
 * How scaffolded files refer to wfsync's JSON Schemas. A schema location is a path relative to the project root
 * with `/` separators (`node_modules/wfsync/schemas/workflow.schema.json`, `./schemas/workflow.schema.json`) or a
 * URL. Pure (path arithmetic only).
 */
import { posix } from 'node:path';

/** Where the schemas are when wfsync is installed as a dependency of the project. */
export const PACKAGE_SCHEMA_PATH = 'node_modules/wfsync/schemas/workflow.schema.json';
/** Where they are in a repository that keeps its own copy (wfsync's own, or a vendored one). */
export const REPO_SCHEMA_PATH = './schemas/workflow.schema.json';

const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The config schema sits beside the workflow schema (both ship in the package's `schemas/`). */
export function configSchemaOf(workflowSchema: string): string {
  if (URL_PATTERN.test(workflowSchema)) return new URL('config.schema.json', workflowSchema).href;
  const dir = posix.dirname(workflowSchema);
  return dir === '.' ? './config.schema.json' : `${dir}/config.schema.json`;
}

/** The schema as seen from a file in `fromDir` (relative to the project root): what its modeline names. */
export function schemaRefFrom(fromDir: string, schema: string): string {
  if (URL_PATTERN.test(schema)) return schema;
  const relative = posix.relative(posix.normalize(fromDir), posix.normalize(schema));
  return relative.startsWith('../') ? relative : `./${relative}`;
}

/** The first line of a definition or config file: tells YAML editors which schema applies. */
export function modeline(schemaRef: string): string {
  return `# yaml-language-server: $schema=${schemaRef}`;
}

/** A schema path as a user typed it (`--schema-path`, maybe with backslashes) → the form settings and modelines use. */
export function normalizeSchemaPath(given: string): string {
  if (URL_PATTERN.test(given)) return given;
  const path = posix.normalize(given.split('\\').join('/'));
  return given.startsWith('./') || given.startsWith('.\\') ? `./${path}` : path;
}
