import { relative } from 'node:path';
import type { ApplyEvent } from '../apply/events.js';
import { hashBody } from '../cache/hash.js';
import { type CheckedDefinition, checkDefinitions } from '../check/check-definitions.js';
import { type ProjectOptions, readProject } from '../config/project.js';
import { type ResolvedTarget, resolveTarget, type TargetFlags } from '../config/target.js';
import { countDiagnostics } from '../diagnostic.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { buildPlan } from '../plan/build-plan.js';
import { buildDesired, buildOnlyFilter, referencedGroups } from '../plan/desired.js';
import type { DesiredWorkflow, Plan } from '../plan/types.js';
import {
  type ClientEvent,
  fetchObservations,
  openTargetSession,
  type TargetSession,
} from '../remote/index.js';
import type { StateFile } from '../state/types.js';

export interface RunFlags extends TargetFlags {
  config?: string;
  only?: string[];
}

/** Step 1–3 of plan/sync/pull/state: config, target, definitions validated. No network yet. */
export interface LoadedRun {
  project: ProjectOptions;
  target: ResolvedTarget;
  definitions: CheckedDefinition[];
  warnings: number;
}

export async function loadRun(flags: RunFlags, cwd: string, env: NodeJS.ProcessEnv): Promise<LoadedRun> {
  const project = readProject(flags, cwd);
  const target = resolveTarget(project, flags, env);
  const defaultDir = relative(cwd, project.workflowsDir) || '.';
  const read = await checkDefinitions([], {
    cwd,
    defaultDir,
    rules: { severities: project.severities, notificationGroups: project.notificationGroups },
    keepDefinitions: true,
  });
  const diagnostics = read.diagnostics;
  const counts = countDiagnostics(diagnostics);
  if (counts.errors > 0) {
    // Finish every check that can fail before the first request: invalid definitions stop here, all reported.
    throw new WfsyncError(
      `${counts.errors} problem${counts.errors === 1 ? '' : 's'} in the definitions; nothing was sent (run "wfsync validate" for the full report)`,
      {
        exitCode: ExitCode.Invalid,
        diagnostics: diagnostics.filter((d) => d.severity === 'error'),
        sources: read.sources,
      },
    );
  }
  return { project, target, definitions: read.definitions, warnings: counts.warnings };
}

export interface PlanRunOptions {
  env: NodeJS.ProcessEnv;
  only?: string[];
  onEvent?: (event: ApplyEvent) => void;
  onClientEvent?: (event: ClientEvent) => void;
  signal?: AbortSignal;
}

/** Open the target and build desired bodies (group references resolved); every unresolvable one is reported. */
export async function openRun(
  loaded: LoadedRun,
  options: PlanRunOptions,
): Promise<{ session: TargetSession; desired: DesiredWorkflow[] }> {
  const session = await openTargetSession(loaded.target, {
    env: options.env,
    ...(options.onClientEvent ? { onClientEvent: options.onClientEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const only = buildOnlyFilter(options.only);
    const selected = only ? loaded.definitions.filter((d) => only(d.identifier, d.file)) : loaded.definitions;
    const { desired, diagnostics } = buildDesired(
      selected,
      session.groups(referencedGroups(selected)),
      hashBody,
    );
    if (diagnostics.length > 0) {
      throw new WfsyncError(
        `cannot resolve notification groups for target "${loaded.target.name}"; nothing was sent`,
        {
          exitCode: ExitCode.Invalid,
          diagnostics,
          sources: new Map(selected.map((d) => [d.file, d.text])),
        },
      );
    }
    return { session, desired };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** Fetch what the service holds for every desired and recorded identifier, then build the plan (pure). */
export async function planRun(input: {
  session: TargetSession;
  desired: DesiredWorkflow[];
  state: StateFile;
  concurrency: number;
  only?: string[];
  onEvent?: (event: ApplyEvent) => void;
  signal?: AbortSignal;
}): Promise<Plan> {
  const only = buildOnlyFilter(input.only);
  const recorded = Object.keys(input.state.workflows).filter((id) => !only || only(id));
  const state: StateFile = only
    ? filterState(input.state, new Set([...recorded, ...input.desired.map((d) => d.identifier)]))
    : input.state;
  const observations = await fetchObservations({
    client: input.session.client,
    identifiers: [...input.desired.map((d) => d.identifier), ...recorded],
    state,
    concurrency: input.concurrency,
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  input.onEvent?.({ type: 'phase', phase: 'plan' });
  const { target, baseUrl } = input.session;
  const shown = target.kind === 'local' ? 'embedded local service' : baseUrl;
  return buildPlan({
    target: { name: target.name, baseUrl: shown },
    desired: input.desired,
    state,
    observations,
  });
}

/**
 * The identity a state file belongs to. The local target's emulator listens on a new port every run, so its state
 * is keyed by its data file instead of a URL.
 */
export function stateIdentity(session: TargetSession): { target: string; baseUrl: string } {
  const { target } = session;
  return { target: target.name, baseUrl: target.kind === 'local' ? 'embedded:local' : session.baseUrl };
}

function filterState(state: StateFile, keep: ReadonlySet<string>): StateFile {
  return {
    ...state,
    workflows: Object.fromEntries(Object.entries(state.workflows).filter(([id]) => keep.has(id))),
    pending: Object.fromEntries(Object.entries(state.pending).filter(([id]) => keep.has(id))),
  };
}
