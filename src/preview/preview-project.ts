/**
 * The definitions a preview shows, loaded as every command loads them (check/: includes resolved, schema and rules
 * checked), and one workflow rendered into the preview document (report/preview). Shared by `wfsync preview` and
 * the local page.
 */
import path from 'node:path';
import type { CheckedDefinition } from '../check/check-definitions.js';
import { createFileRuleOptions } from '../check/rule-overrides.js';
import { type ProjectOptions, projectRuleOptions } from '../config/project.js';
import type { Diagnostic } from '../diagnostic.js';
import { UsageError } from '../errors.js';
import type { FsBoundary } from '../fs-boundary.js';
import { type RenderData, renderWorkflow, sampleData, withPayload } from '../render/index.js';
import { buildPreviewWorkflow, type PreviewWorkflow } from '../report/preview/document.js';
import { typoDistance } from '../text.js';
import { applyDefinitionSuppressions } from '../validate/index.js';
import { KNOWN_RULE_CODES, renderFindingsToDiagnostics } from '../validate/rules/index.js';
import type { RuleOptions, SeverityOverride } from '../validate/rules/types.js';
import { type DataOverrides, readNamedPreviews } from './preview-input.js';

export interface WorkflowPreviewOptions {
  /** Replaces the sample data, part by part (`--payload`, `--subscriber`, `--events`, the page's editor). */
  overrides?: DataOverrides;
  /** A named payload from the previews file next to the definition (`--preview`). */
  preview?: { name: string; overrides: DataOverrides };
  /** A step name or 0-based index. */
  step?: string | number;
  /** The definition's rules (PreviewRules.forFile): the renderer's findings follow them as in validate. */
  rules?: RuleOptions;
}

/** The rules a preview follows: the project's `rules:` and `overrides:`, as validate's. */
export interface PreviewRules {
  /**
   * To load definitions with: validate's render rules off, in `rules:` and in every override. The preview renders
   * every step itself and reports those findings in place (a step the service would fail to render is shown failing,
   * not refused before rendering), once.
   */
  load: RuleOptions;
  /** A definition's rules (display path), its `overrides:` merged: what its render findings follow. */
  forFile: (file: string) => RuleOptions;
}

export function buildPreviewRules(project: ProjectOptions): PreviewRules {
  const rules = projectRuleOptions(project);
  const renderOff = (severities: Record<string, SeverityOverride> | undefined) => ({
    ...severities,
    ...Object.fromEntries(RENDER_CODES.map((code) => [code, 'off' as const])),
  });
  const load: RuleOptions = { ...rules, severities: renderOff(rules.severities) };
  if (rules.overrides)
    load.overrides = rules.overrides.map((o) => ({ files: o.files, rules: renderOff(o.rules) }));
  return { load, forFile: createFileRuleOptions(rules, project.cwd) };
}

const RENDER_CODES = KNOWN_RULE_CODES.filter((code) => code.startsWith('render-'));

/** The data a workflow is rendered with: the sample, then the named preview, then the overrides. */
export function buildRenderData(definition: CheckedDefinition, options: WorkflowPreviewOptions): RenderData {
  let data = sampleData(definition.workflow);
  for (const layer of [options.preview?.overrides, options.overrides]) {
    if (layer?.payload !== undefined) data = withPayload(data, layer.payload);
    if (layer?.subscriber !== undefined) data.subscriber = layer.subscriber;
    if (layer?.events !== undefined) data.events = layer.events;
  }
  return data;
}

export function previewWorkflow(
  definition: CheckedDefinition,
  options: WorkflowPreviewOptions = {},
): PreviewWorkflow {
  const data = buildRenderData(definition, options);
  const rendered = renderWorkflow(
    definition.workflow,
    data,
    options.step === undefined ? {} : { step: options.step },
  );
  return buildPreviewWorkflow({
    identifier: definition.identifier,
    file: definition.file,
    name: definition.workflow.name,
    rendered,
    data,
    steps: definition.workflow.steps,
    diagnostics: applyDefinitionSuppressions(
      definition,
      renderFindingsToDiagnostics(definition, rendered.findings, {
        severities: options.rules?.severities ?? {},
      }),
    ).diagnostics,
    ...(options.preview === undefined ? {} : { preview: options.preview.name }),
  });
}

/** `--step`: a whole number is a 0-based index, anything else a step name. */
export function parseStep(given: string): string | number {
  return /^\d+$/.test(given) ? Number(given) : given;
}

/** The step `--step` names must exist; a usage error naming the workflow's steps otherwise. */
export function checkStep(definition: CheckedDefinition, step: string | number): void {
  const steps = definition.workflow.steps ?? [];
  const found =
    typeof step === 'number'
      ? step < steps.length
      : steps.some((s) => (s as { name?: unknown }).name === step);
  if (found) return;
  const names = steps.map((s, i) => `${i} ${JSON.stringify((s as { name?: unknown }).name ?? '')}`);
  throw new UsageError(
    `--step ${typeof step === 'number' ? step : JSON.stringify(step)}: workflow ${definition.identifier} has no such step` +
      (names.length > 0 ? ` (its steps: ${names.join(', ')})` : ' (it has no steps)'),
  );
}

/** Known identifiers, the closest to `wanted` first (ties in their order). */
export function closestFirst(wanted: string, known: readonly string[]): string[] {
  return known
    .map((name, i) => ({ name, i, distance: typoDistance(wanted.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.i - b.i)
    .map((entry) => entry.name);
}

/** The named previews of a definition, and the problems of its previews file. */
export function namedPreviewsOf(
  definition: CheckedDefinition,
  cwd: string,
  boundary: FsBoundary,
): { names: Map<string, DataOverrides>; diagnostics: Diagnostic[]; file?: string; text?: string } {
  const read = readNamedPreviews(path.resolve(cwd, definition.file), cwd, boundary);
  return {
    names: read.previews,
    diagnostics: read.diagnostics,
    ...(read.file === undefined ? {} : { file: read.file }),
    ...(read.text === undefined ? {} : { text: read.text }),
  };
}
