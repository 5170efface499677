import type { ProjectOptions } from '../config/project.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { processDefaults, type TargetApiOptions, targetOptions } from './options.js';
import { loadRun } from './pipeline.js';

/** `loadProject`'s options: the target flags, and `base` as plan takes it. */
export interface LoadProjectOptions extends TargetApiOptions {
  /** Also read the definitions at the merge-base of HEAD and this git ref (`plan --base`). */
  base?: string;
}

/** A project as plan and sync see it before their first request. No secret: the key's variable, never its value. */
export interface LoadedProject {
  cwd: string;
  /** The config file read, absolute; undefined without one. */
  configFile: string | undefined;
  /** Where the definitions are looked for, absolute. */
  workflowsDir: ProjectOptions['workflowsDir'];
  target: {
    name: string;
    /** `local`: the embedded service; `remote`: a service at `baseUrl`. */
    kind: 'local' | 'remote';
    baseUrl?: string;
    /** The environment variable the API key is read from. */
    apiKeyEnv: string;
    /** The state file, absolute. */
    statePath: string;
    concurrency: number;
  };
  /** The definitions `only` selects (every one without it), all valid, in file order. */
  definitions: Array<{ identifier: string; name: string; file: string; workflow: WorkflowDefinition }>;
  /** With `base`: the ref and the merge-base commit the definitions were read at. */
  base?: { ref: string; commit: string };
}

/**
 * The first step of plan and sync: the config, the target (flags > env > config > defaults) and every definition,
 * read and checked. Nothing is sent. Invalid definitions reject with a WfsyncError whose `code` is `invalid` and
 * whose `diagnostics` say where.
 */
export async function loadProject(options: LoadProjectOptions = {}): Promise<LoadedProject> {
  const { cwd, env } = processDefaults(options);
  const loaded = await loadRun(targetOptions(options, cwd), { cwd, env, base: options.base });
  const { target } = loaded;
  return {
    cwd,
    configFile: loaded.project.config?.path,
    workflowsDir: loaded.project.workflowsDir,
    target: {
      name: target.name,
      kind: target.kind,
      ...(target.baseUrl === undefined ? {} : { baseUrl: target.baseUrl }),
      apiKeyEnv: target.apiKeyEnv,
      statePath: target.statePath,
      concurrency: target.concurrency,
    },
    definitions: loaded.definitions.map((d) => ({
      identifier: d.identifier,
      name: d.workflow.name,
      file: d.file,
      workflow: d.workflow,
    })),
    ...(loaded.base ? { base: { ref: loaded.base.ref, commit: loaded.base.commit } } : {}),
  };
}
