import { readProject } from '../../config/project.js';
import { type Diagnostic, sortDiagnostics } from '../../diagnostic.js';
import { UsageError, WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { createFsBoundary } from '../../fs-boundary.js';
import { type DataOverrides, type Json, readDataFile } from '../../preview/preview-input.js';
import {
  buildPreviewRules,
  checkStep,
  closestFirst,
  namedPreviewsOf,
  parseStep,
  previewWorkflow,
  type WorkflowPreviewOptions,
} from '../../preview/preview-project.js';
import { buildPreviewDocument, type PreviewDocument } from '../../report/preview/document.js';
import { renderPreviewHtml } from '../../report/preview/html.js';
import { renderPreviewHuman } from '../../report/preview/human.js';
import { renderPreviewJson } from '../../report/preview/json.js';
import { writeOutput } from '../../report/write-output.js';
import { type CommandContext, fileText, useColor } from '../context.js';
import { checkOutputFile, writeOutputFile } from '../output-file.js';
import type { PreviewFlags } from './preview-flags.js';
import { selectDefinitions } from './preview-select.js';

export async function runPreview(ctx: CommandContext, args: string[], flags: PreviewFlags): Promise<number> {
  if (flags.serve) return (await import('./preview-serve.js')).runPreviewServe(ctx, args, flags);
  if (flags.port !== undefined) throw new UsageError('--port needs --serve');
  if (flags.out !== undefined) checkOutputFile(ctx.cwd, '--out', flags.out);
  // 1. Config, then the definitions asked for (invalid ones stop here: exit 3, all reported).
  const project = readProject(flags, ctx.cwd);
  const rules = buildPreviewRules(project);
  const definitions = await selectDefinitions(args, { project, rules, cwd: ctx.cwd });
  // 2. The data given instead of the samples (a missing file: 64; not JSON or not the right shape: 3).
  const overrides = readOverrides(flags, ctx.cwd);
  const step = flags.step === undefined ? undefined : parseStep(flags.step);
  if (step !== undefined) for (const definition of definitions) checkStep(definition, step);
  // 3. Render each workflow.
  const boundary = createFsBoundary(ctx.cwd);
  const sources = new Map<string, string>();
  const named: Array<WorkflowPreviewOptions['preview']> = definitions.map((definition) => {
    if (flags.preview === undefined) return undefined;
    const previews = namedPreviewsOf(definition, ctx.cwd, boundary);
    if (previews.diagnostics.length > 0)
      throw invalidPreviews(previews.diagnostics, previews.file, previews.text);
    const found = previews.names.get(flags.preview);
    return found === undefined ? undefined : { name: flags.preview, overrides: found };
  });
  if (flags.preview !== undefined && named.every((n) => n === undefined))
    throw unknownPreview(
      flags.preview,
      definitions.map((d) => namedPreviewsOf(d, ctx.cwd, boundary)),
    );
  const workflows = definitions.map((definition, i) => {
    sources.set(definition.file, definition.text);
    return previewWorkflow(definition, {
      overrides,
      rules: rules.forFile(definition.file),
      ...(named[i] === undefined ? {} : { preview: named[i] }),
      ...(step === undefined ? {} : { step }),
    });
  });
  const doc = buildPreviewDocument(workflows);
  // 4. Write, then the exit code.
  await writePreview(ctx, doc, flags, sources);
  return previewExitCode(doc);
}

function readOverrides(flags: PreviewFlags, cwd: string): DataOverrides {
  const overrides: DataOverrides = {};
  if (flags.payload !== undefined) overrides.payload = readDataFile('payload', flags.payload, cwd) as Json;
  if (flags.subscriber !== undefined)
    overrides.subscriber = readDataFile('subscriber', flags.subscriber, cwd) as Json;
  if (flags.events !== undefined) overrides.events = readDataFile('events', flags.events, cwd) as Json[];
  return overrides;
}

function invalidPreviews(diagnostics: Diagnostic[], file?: string, text?: string): WfsyncError {
  return new WfsyncError(`the previews file ${file ?? ''} cannot be used`, {
    exitCode: ExitCode.Invalid,
    diagnostics: sortDiagnostics(diagnostics),
    sources: file !== undefined && text !== undefined ? new Map([[file, text]]) : new Map(),
  });
}

function unknownPreview(name: string, all: Array<{ names: Map<string, DataOverrides> }>): UsageError {
  const known = [...new Set(all.flatMap((p) => [...p.names.keys()]))];
  return new UsageError(
    `--preview ${JSON.stringify(name)}: no such named payload in the previews files (<definition>.previews.json)` +
      (known.length > 0 ? `; known: ${closestFirst(name, known).join(', ')}` : '; none is defined'),
  );
}

async function writePreview(
  ctx: CommandContext,
  doc: PreviewDocument,
  flags: PreviewFlags,
  sources: ReadonlyMap<string, string>,
): Promise<void> {
  const toFile = flags.out !== undefined;
  const text =
    flags.format === 'json'
      ? renderPreviewJson(doc)
      : flags.format === 'html'
        ? renderPreviewHtml(doc, { allowImages: flags.allowImages === true })
        : renderPreviewHuman(doc, { color: !toFile && useColor(ctx), sources });
  if (flags.out === undefined) return writeOutput(ctx.stdout, text);
  await writeOutputFile(ctx.cwd, '--out', flags.out, fileText(ctx, text));
  await writeOutput(ctx.stderr, `wrote ${flags.out}\n`);
}

/** 0; 3 when a step would fail to render at the service, or a finding is an error. */
function previewExitCode(doc: PreviewDocument): number {
  const failed = doc.workflows.some(
    (w) => w.steps.some((s) => s.error !== undefined) || w.diagnostics.some((d) => d.severity === 'error'),
  );
  return failed ? ExitCode.Invalid : ExitCode.Ok;
}
