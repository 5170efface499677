import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../scripts/gen.mjs';

/**
 * The JSON contract, held in tests: every `--format json` document an e2e test reads goes through parseJsonOutput,
 * which checks that stdout is exactly one JSON document (one trailing newline) and that it matches the command's
 * schema in schemas/ (`<command>-output.schema.json`, whose documents are the command's output or the error
 * document). Schemas are compiled once, strictly, with every output schema loaded so cross-file `$ref`s resolve.
 */

const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

export type JsonOutputKind =
  | 'validate'
  | 'plan'
  | 'sync'
  | 'pull'
  | 'state'
  | 'new'
  | 'init'
  | 'preview'
  | 'doctor'
  | 'error'
  | 'codeclimate';

/** Every output schema's file name (`plan-output.schema.json`…). */
export const OUTPUT_SCHEMA_FILES = readdirSync(SCHEMAS_DIR)
  .filter((f) => f.endsWith('-output.schema.json'))
  .sort();

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(kind: JsonOutputKind): ValidateFunction {
  if (!validators) {
    const ajv = createAjv({ verbose: false });
    const schemas = OUTPUT_SCHEMA_FILES.map(
      (file) => JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as { $id: string },
    );
    for (const schema of schemas) ajv.addSchema(schema);
    validators = new Map(
      OUTPUT_SCHEMA_FILES.map((file, i) => [file, ajv.getSchema(schemas[i]!.$id) as ValidateFunction]),
    );
  }
  const validate = validators.get(`${kind}-output.schema.json`);
  if (!validate) throw new Error(`no schema for ${kind} output`);
  return validate;
}

/** The schema's findings for `value` as `kind` output, one per line (empty when it matches). */
export function jsonOutputProblems(kind: JsonOutputKind, value: unknown): string[] {
  const validate = validatorFor(kind);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (${e.schemaPath})`);
}

/**
 * `stdout` as the one JSON document of a `kind` command run with `--format json`: parsed, checked against the
 * schema, returned. Throws (failing the test) with the schema's findings otherwise.
 */
// biome-ignore lint/suspicious/noExplicitAny: tests read into the document freely; the schema has checked it
export function parseJsonOutput(kind: JsonOutputKind, stdout: string): any {
  // A Code Quality report is an array (GitLab's shape); every other document an object.
  const close = kind === 'codeclimate' ? ']\n' : '}\n';
  if (!stdout.endsWith(close) || stdout.endsWith('\n\n'))
    throw new Error(
      `--format json stdout is not one document ending with one newline:\n${stdout.slice(-200)}`,
    );
  const value: unknown = JSON.parse(stdout);
  const problems = jsonOutputProblems(kind, value);
  if (problems.length > 0)
    throw new Error(
      `${kind} --format json does not match its schema:\n${problems.join('\n')}\n${stdout.slice(0, 2000)}`,
    );
  return value;
}

const FORMAT_OF: Record<string, JsonOutputKind> = {
  validate: 'validate',
  plan: 'plan',
  sync: 'sync',
  pull: 'pull',
  state: 'state',
  new: 'new',
  init: 'init',
  preview: 'preview',
  doctor: 'doctor',
};

/**
 * Which document a command line asks for: the command's kind when it has `--format json` (`-f json`,
 * `--format=json`), no `--help` and no `--watch` (a watch prints a report per round); undefined otherwise.
 * `sync --dry-run` prints a plan. `validate` and `plan` given `--format codeclimate` print a Code Quality report.
 */
export function jsonOutputKind(args: readonly string[]): JsonOutputKind | undefined {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  let format: string | undefined;
  for (const [i, arg] of options.entries()) {
    if (arg === '--format' || arg === '-f') format = options[i + 1];
    else if (arg.startsWith('--format=')) format = arg.slice('--format='.length);
  }
  const codeclimate = format === 'codeclimate';
  if (
    (format !== 'json' && !codeclimate) ||
    options.some((a) => ['--help', '-h', '--watch', '-w'].includes(a))
  )
    return undefined;
  let command: string | undefined;
  for (let i = 0; i < options.length && command === undefined; i++) {
    const arg = options[i]!;
    if (arg === '-c' || arg === '--config') i++;
    else if (!arg.startsWith('-')) command = arg;
  }
  // `validate -o FILE` writes the report to the file, not stdout.
  const toFile = options.some((a) => a === '-o' || a === '--output' || a.startsWith('--output='));
  if (codeclimate)
    return command === 'plan' || (command === 'validate' && !toFile) ? 'codeclimate' : undefined;
  const kind = command === undefined ? undefined : FORMAT_OF[command];
  return kind === 'sync' && options.includes('--dry-run') ? 'plan' : kind;
}

/**
 * The contract on a finished run of the CLI (runCli calls it on every run): a command given `--format json` that
 * ended by itself printed exactly one document of its schema on stdout, whatever its exit code.
 */
export function expectJsonContract(
  args: readonly string[],
  result: { status: number | null; signal: string | null; stdout: string },
): void {
  const kind = jsonOutputKind(args);
  if (kind === undefined || result.signal !== null) return;
  const document = parseJsonOutput(kind, result.stdout) as { error?: { exitCode: number } };
  if (document.error && document.error.exitCode !== result.status)
    throw new Error(
      `the error document says exit ${document.error.exitCode}, the process exited ${result.status}`,
    );
}
