import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertDefinitionFolders } from '../../api/outside.js';
import { type CheckedDefinition, type CheckResult, checkDefinitions } from '../../check/check-definitions.js';
import type { ProjectOptions } from '../../config/project.js';
import { countDiagnostics } from '../../diagnostic.js';
import { UsageError, WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { closestFirst, type PreviewRules } from '../../preview/preview-project.js';
import { plural } from '../../text.js';

/**
 * The workflows `wfsync preview [file|identifier…]` names, loaded as validate loads them: an argument that is a path
 * on disk is a file or directory, anything else a trigger identifier (looked up in the workflows directory). Errors
 * in the files asked for stop the run (exit 3, every one reported); errors elsewhere do not. An unknown identifier
 * is a usage error naming the known ones, the closest first.
 */
export async function selectDefinitions(
  args: readonly string[],
  { project, rules, cwd }: { project: ProjectOptions; rules: PreviewRules; cwd: string },
): Promise<CheckedDefinition[]> {
  const paths = args.filter((arg) => existsSync(path.resolve(cwd, arg)));
  const identifiers = args.filter((arg) => !paths.includes(arg));
  const defaultDir = path.relative(cwd, project.workflowsDir) || '.';
  // Identifiers (or no argument at all) need every definition of the project: every folder of workflowsDir, less
  // `exclude`. Paths alone are read as given, as validate reads them.
  const wholeProject = args.length === 0 || identifiers.length > 0;
  if (wholeProject && paths.length === 0) assertDefinitionFolders(project, cwd);
  const checked = await checkDefinitions(wholeProject ? [] : paths, {
    cwd,
    defaultDir,
    ...(wholeProject ? { sources: project.sources } : {}),
    rules: rules.load,
    keepDefinitions: true,
  });
  const wantedFiles = new Set<string>();
  if (args.length === 0 || paths.length > 0) {
    const roots = paths.map((p) => path.resolve(cwd, p));
    for (const file of checked.files) {
      const absolute = path.resolve(cwd, file);
      if (
        args.length === 0 ||
        roots.some((root) => absolute === root || absolute.startsWith(root + path.sep))
      )
        wantedFiles.add(file);
    }
  }
  for (const identifier of identifiers) {
    const files = checked.identifiers.get(identifier);
    if (files === undefined) throw unknownWorkflow(identifier, checked);
    for (const file of files) wantedFiles.add(file);
  }
  const blocking = checked.diagnostics.filter(
    (d) => d.severity === 'error' && wantedFiles.has(d.includedBy ?? d.file),
  );
  const errors = countDiagnostics(blocking).errors;
  if (errors > 0) {
    throw new WfsyncError(`${plural(errors, 'problem')} in the definitions; nothing was rendered`, {
      exitCode: ExitCode.Invalid,
      diagnostics: blocking,
      sources: checked.sources,
    });
  }
  if (wantedFiles.size === 0)
    throw new UsageError(
      `no workflow definitions (*.yaml, *.yml) found in ${paths.length > 0 ? paths.join(', ') : `${defaultDir}/`}`,
    );
  return checked.definitions.filter((d) => wantedFiles.has(d.file));
}

function unknownWorkflow(identifier: string, checked: CheckResult): UsageError {
  const known = closestFirst(identifier, [...checked.identifiers.keys()]);
  const shown = known.slice(0, 8).join(', ') + (known.length > 8 ? `, and ${known.length - 8} more` : '');
  return new UsageError(
    `no workflow "${identifier}" (neither a file nor a trigger identifier)` +
      (known.length > 0 ? `; known workflows: ${shown}` : '; no workflow was found'),
  );
}
