import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { assertDefinitionFolders } from '../../api/outside.js';
import { checkDefinitions } from '../../check/check-definitions.js';
import { type ProjectFlags, projectRuleOptions, readProject } from '../../config/project.js';
import { countDiagnostics } from '../../diagnostic.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { shownPath } from '../../fs-boundary.js';
import { writeOutput } from '../../report/write-output.js';
import { plural } from '../../text.js';
import { renderJsonSchema } from '../../types/json-schema.js';
import { buildWorkflowTypes } from '../../types/payload-shape.js';
import { renderTypeScript } from '../../types/typescript.js';
import type { CommandContext } from '../context.js';
import { checkOutputFile, writeOutputFile } from '../output-file.js';

/** `wfsync types`'s flags, global ones included (types.ts declares them). */
export interface TypesFlags extends ProjectFlags {
  format: 'ts' | 'json-schema';
  out?: string;
  check?: boolean;
}

/** Where the file goes without `--out`: beside the config file (the working directory without one). */
const DEFAULT_OUT = { ts: 'wfsync-payloads.ts', 'json-schema': 'wfsync-payloads.schema.json' } as const;

export async function runTypes(ctx: CommandContext, flags: TypesFlags): Promise<number> {
  // 1. Config and where the file goes (a link on the way is refused before anything is read).
  const project = readProject(flags, ctx.cwd);
  const out =
    flags.out === undefined
      ? join(project.config?.dir ?? ctx.cwd, DEFAULT_OUT[flags.format])
      : resolve(ctx.cwd, flags.out);
  const shown = shownPath(ctx.cwd, out);
  if (!flags.check) checkOutputFile(ctx.cwd, '--out', out);
  // 2. Every definition of the project, as validate reads them: an error anywhere stops the run (exit 3).
  assertDefinitionFolders(project, ctx.cwd);
  const checked = await checkDefinitions([], {
    cwd: ctx.cwd,
    defaultDir: relative(ctx.cwd, project.workflowsDir) || '.',
    sources: project.sources,
    rules: projectRuleOptions(project),
    keepDefinitions: true,
  });
  const errors = countDiagnostics(checked.diagnostics).errors;
  if (errors > 0) {
    throw new WfsyncError(`${plural(errors, 'problem')} in the definitions; no types were written`, {
      exitCode: ExitCode.Invalid,
      diagnostics: checked.diagnostics.filter((d) => d.severity === 'error'),
      sources: checked.sources,
    });
  }
  // 3. The types, then the file.
  const workflows = checked.definitions.map(buildWorkflowTypes);
  const text = flags.format === 'ts' ? renderTypeScript(workflows) : renderJsonSchema(workflows);
  const count = plural(workflows.length, 'workflow');
  if (flags.check) {
    const current = await readFile(out, 'utf8').catch(() => undefined);
    if (current === text) {
      await writeOutput(ctx.stdout, `${shown} is up to date (${count})\n`);
      return ExitCode.Ok;
    }
    const state = current === undefined ? 'is missing' : 'is stale';
    const again = `wfsync types${flags.format === 'ts' ? '' : ' --format json-schema'}`;
    await writeOutput(ctx.stderr, `wfsync: ${shown} ${state}: run "${again}" to write it\n`);
    return ExitCode.Invalid;
  }
  await writeOutputFile(ctx.cwd, '--out', out, text);
  await writeOutput(ctx.stdout, `wrote ${shown} (${count})\n`);
  return ExitCode.Ok;
}
