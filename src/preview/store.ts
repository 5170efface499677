/**
 * What the local page shows, kept up to date as files change: every definition file with its last good definition,
 * its current problems and its named previews. A change re-checks only the files it touches (the definition, the
 * definitions including a changed file, the owner of a changed previews file, files new or gone, and files that were
 * broken, since the file they lacked may just have appeared); rendering happens when the page asks for a workflow.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type CheckedDefinition, checkDefinitions } from '../check/check-definitions.js';
import type { ProjectOptions } from '../config/project.js';
import { scanDefinitionFiles } from '../definitions/find.js';
import { includesOf } from '../definitions/include-references.js';
import type { Diagnostic } from '../diagnostic.js';
import { createFsBoundary, type FsBoundary, toDisplayPath } from '../fs-boundary.js';
import type { PreviewStep } from '../generated/preview-output.js';
import { compareText } from '../text.js';
import type { RuleOptions } from '../validate/rules/types.js';
import type { DataOverrides } from './preview-input.js';
import { buildPreviewRules, namedPreviewsOf, type PreviewRules } from './preview-project.js';

export type ServedStep = Pick<PreviewStep, 'index' | 'name' | 'type'>;

export interface ServedWorkflow {
  /** Display path of the definition: the page's key for it. */
  file: string;
  identifier?: string;
  name?: string;
  /** The last definition that checked clean; kept while the file is broken (its steps still listed). */
  definition?: CheckedDefinition;
  /** The file's problems now (errors mean it is broken: the page shows them in place of its steps). */
  diagnostics: Diagnostic[];
  broken: boolean;
  steps: ServedStep[];
  previews: Map<string, DataOverrides>;
}

export class PreviewStore {
  readonly #cwd: string;
  #project: ProjectOptions;
  #rules: PreviewRules;
  readonly #paths: readonly string[];
  #boundary: FsBoundary;
  readonly #workflows = new Map<string, ServedWorkflow>();
  /** Absolute included file → the definition files including it. */
  readonly #includers = new Map<string, Set<string>>();
  version = 0;

  constructor(options: { cwd: string; project: ProjectOptions; paths: readonly string[] }) {
    this.#cwd = options.cwd;
    this.#project = options.project;
    this.#rules = buildPreviewRules(options.project);
    this.#paths = options.paths;
    this.#boundary = createFsBoundary(options.cwd);
  }

  /** A definition's rules (its `overrides:` merged), which its render findings follow. */
  rulesFor(file: string): RuleOptions {
    return this.#rules.forFile(file);
  }

  get defaultDir(): string {
    return path.relative(this.#cwd, this.#project.workflowsDir) || '.';
  }

  /** What is watched: the paths given, or the workflows directory, and the config file. */
  get roots(): string[] {
    const roots =
      this.#paths.length > 0
        ? this.#paths.map((p) => path.resolve(this.#cwd, p))
        : [...this.#project.sources.roots];
    const config = this.configFile;
    return config === undefined ? roots : [...roots, config];
  }

  /** The config file read (absolute), if any: a change to it reloads the project (reloadProject). */
  get configFile(): string | undefined {
    return this.#project.config?.path;
  }

  list(): ServedWorkflow[] {
    return [...this.#workflows.values()];
  }

  get(file: string): ServedWorkflow | undefined {
    return this.#workflows.get(file);
  }

  async load(): Promise<void> {
    const files = await this.#scan();
    // No folder to read yet (nothing given, none of workflowsDir's exists): an empty page, watching for the folder
    // or a config that names another.
    if (files.length === 0 && !this.hasFolders) return;
    await this.#check(files);
  }

  /** Whether there is anything to search: paths were given, or a folder of workflowsDir exists. */
  get hasFolders(): boolean {
    return this.#paths.length > 0 || this.#project.sources.roots.some((root) => existsSync(root));
  }

  /**
   * The config changed (rule severities, workflowsDir, notification groups): every file is checked again under the
   * new one, since a severity or a group changes what each shows. Returns every file listed before or after.
   */
  async reloadProject(project: ProjectOptions): Promise<string[]> {
    this.#project = project;
    this.#rules = buildPreviewRules(project);
    this.#boundary = createFsBoundary(this.#cwd);
    const before = [...this.#workflows.keys()];
    this.#workflows.clear();
    this.#includers.clear();
    const files = await this.#scan();
    if (files.length > 0) await this.#check(files);
    this.version++;
    return [...new Set([...before, ...files])].sort();
  }

  /** After a burst of changes (absolute paths): re-check what they touch; returns the files whose entry changed. */
  async refresh(changed: readonly string[]): Promise<string[]> {
    // A fresh boundary: directories may have come or gone.
    this.#boundary = createFsBoundary(this.#cwd);
    const files = await this.#scan();
    const present = new Set(files);
    const affected = new Set<string>();
    for (const file of this.#workflows.keys()) {
      if (!present.has(file)) {
        this.#workflows.delete(file);
        affected.add(file);
      }
    }
    for (const file of files) if (!this.#workflows.has(file)) affected.add(file);
    for (const absolute of changed) {
      const display = this.#display(absolute);
      if (present.has(display)) affected.add(display);
      for (const file of this.#includers.get(absolute) ?? []) affected.add(file);
      if (absolute.endsWith('.previews.json')) {
        const stem = absolute.slice(0, -'.previews.json'.length);
        for (const ext of ['.yaml', '.yml', '.YAML', '.YML']) {
          const owner = this.#display(stem + ext);
          if (present.has(owner)) affected.add(owner);
        }
      }
    }
    for (const workflow of this.#workflows.values()) if (workflow.broken) affected.add(workflow.file);
    const recheck = [...affected].filter((file) => present.has(file));
    if (recheck.length > 0) await this.#check(recheck);
    this.version++;
    return [...affected].sort();
  }

  async #scan(): Promise<string[]> {
    const scan = await scanDefinitionFiles(this.#paths.length > 0 ? this.#paths : [], {
      cwd: this.#cwd,
      defaultDir: this.defaultDir,
      boundary: this.#boundary,
      // No paths: every folder of workflowsDir, less `exclude` (the config file is never a definition).
      ...(this.#paths.length > 0 ? {} : { sources: this.#project.sources }),
    }).catch(() => undefined);
    return scan?.files ?? [];
  }

  async #check(files: readonly string[]): Promise<void> {
    const checked = await checkDefinitions(files, {
      cwd: this.#cwd,
      defaultDir: this.defaultDir,
      rules: this.#rules.load,
      keepDefinitions: true,
      boundary: this.#boundary,
    });
    const good = new Map(checked.definitions.map((d) => [d.file, d]));
    for (const file of files) {
      const previous = this.#workflows.get(file);
      // Its errors only: the page is about what a step shows; `wfsync validate` reports the rest.
      const diagnostics = checked.diagnostics.filter(
        (d) => d.severity === 'error' && (d.includedBy ?? d.file) === file,
      );
      const definition = good.get(file) ?? previous?.definition;
      const broken = !good.has(file);
      const entry: ServedWorkflow = {
        file,
        diagnostics,
        broken,
        steps: definition ? stepsOf(definition) : [],
        previews: new Map(),
        ...(definition
          ? { definition, identifier: definition.identifier, name: definition.workflow.name }
          : {}),
      };
      if (definition) {
        for (const include of includesOf(definition)) {
          const set = this.#includers.get(include.absolute) ?? new Set<string>();
          set.add(file);
          this.#includers.set(include.absolute, set);
        }
        const previews = namedPreviewsOf(definition, this.#cwd, this.#boundary);
        entry.previews = previews.names;
        entry.diagnostics = [...entry.diagnostics, ...previews.diagnostics];
      }
      this.#workflows.set(file, entry);
    }
    // Keep the page's order: file order.
    const sorted = [...this.#workflows.entries()].sort(([a], [b]) => compareText(a, b));
    this.#workflows.clear();
    for (const [file, entry] of sorted) this.#workflows.set(file, entry);
  }

  #display(absolute: string): string {
    return toDisplayPath(this.#cwd, absolute);
  }
}

function stepsOf(definition: CheckedDefinition): ServedStep[] {
  return (definition.workflow.steps ?? []).map((step, index) => {
    const s = step as { name?: unknown; template?: { type?: unknown } };
    const type = typeof s.template?.type === 'string' ? s.template.type : 'step';
    return { index, name: typeof s.name === 'string' ? s.name : `${type} #${index}`, type };
  });
}
