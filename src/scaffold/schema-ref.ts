/**
 * How scaffolded files refer to wfsync's JSON Schemas. A schema location is a path relative to the project root
 * with `/` separators (`node_modules/wfsync/schemas/workflow.schema.json`, `./schemas/workflow.schema.json`) or a
 * URL. Pure (path arithmetic and glob matching only).
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';

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

/** The workflow schema's file name, in the package and in a vendored copy: how a `yaml.schemas` entry is told to be ours. */
const WORKFLOW_SCHEMA_FILE = 'workflow.schema.json';

/** A `yaml.schemas` key naming wfsync's workflow schema: a path or URL whose last segment is its file name. */
export function isWorkflowSchema(schema: string): boolean {
  const path = schema.split(/[?#]/)[0] ?? '';
  return path.split(/[\\/]/).at(-1) === WORKFLOW_SCHEMA_FILE;
}

/** What the command found on disk for one file it writes. Paths are absolute, with `/` separators. */
export interface ModelineInput {
  /** The file written. */
  path: string;
  /** The project root: where `.vscode/settings.json` and `schemas/` are looked for. */
  root: string;
  /** A schema the user named (`init --schema-path`: relative to the root, or a URL). */
  given?: string | undefined;
  /** `<root>/schemas/workflow.schema.json`, when the repository keeps its own copy. */
  vendored?: string | undefined;
  /** `node_modules/wfsync/schemas/workflow.schema.json` as Node finds it from the file's folder upward. */
  installed?: string | undefined;
  /** The globs `.vscode/settings.json` maps to wfsync's workflow schema (`yaml.schemas`), as written there. */
  settingsGlobs: readonly string[];
}

export type ModelineDecision =
  | { source: 'given' | 'vendored' | 'installed'; schemaRef: string }
  | { source: 'settings' }
  | { source: 'none'; hint: string };

/**
 * The modeline a written file gets, so that it resolves in the repository it lands in:
 * 1. the schema the user named;
 * 2. the repository's own copy (`schemas/`): committed, so it resolves on a fresh clone, before any install;
 * 3. the installed package's, found from the file's folder upward (a monorepo's hoisted install included);
 * 4. none when `.vscode/settings.json` maps the file to wfsync's schema: a modeline wins over the settings in the
 *    YAML language server, and one naming a file that is not there would hide a mapping that works;
 * 5. none otherwise (a dangling path helps no editor), with a hint saying how to get one.
 * Pure: path arithmetic and glob matching on what the caller found.
 */
export function decideModeline(input: ModelineInput): ModelineDecision {
  const dir = posix.dirname(input.path);
  const from = (schema: string) => {
    const relative = posix.relative(dir, schema);
    return relative.startsWith('../') ? relative : `./${relative}`;
  };
  if (input.given !== undefined) {
    const schemaRef = URL_PATTERN.test(input.given) ? input.given : from(posix.join(input.root, input.given));
    return { source: 'given', schemaRef };
  }
  if (input.vendored !== undefined) return { source: 'vendored', schemaRef: from(input.vendored) };
  if (input.installed !== undefined) return { source: 'installed', schemaRef: from(input.installed) };
  const file = posix.relative(input.root, input.path);
  if (globsCover(input.settingsGlobs, file)) return { source: 'settings' };
  return {
    source: 'none',
    hint:
      `no schema modeline in ${file}: wfsync is not installed here (npm install --save-dev wfsync), the ` +
      'repository has no schemas/workflow.schema.json, and .vscode/settings.json does not map the file ' +
      '(wfsync init adds the mapping)',
  };
}

/** The first line the file gets, if any. */
export function modelineOf(decision: ModelineDecision): string | undefined {
  return 'schemaRef' in decision ? modeline(decision.schemaRef) : undefined;
}

/** A file's text with the decision's modeline as its first line (unchanged when there is none). */
export function withModeline(text: string, decision: ModelineDecision): string {
  const line = modelineOf(decision);
  return line === undefined ? text : `${line}\n${text}`;
}

/**
 * Whether `yaml.schemas` globs cover a file (relative to the settings' folder), as VS Code's JSON language service
 * reads them: a leading `/` is dropped, each glob also matches at any depth (as if it began with `**` and a slash), `!` excludes, and
 * the last glob that matches decides.
 */
export function globsCover(globs: readonly string[], file: string): boolean {
  let covered = false;
  for (const raw of globs) {
    const include = !raw.startsWith('!');
    const glob = (include ? raw : raw.slice(1)).replace(/^\//, '');
    if (glob === '') continue;
    const options = { dot: true };
    if (picomatch(glob, options)(file) || picomatch(`**/${glob}`, options)(file)) covered = include;
  }
  return covered;
}
