import { relative } from 'node:path';
import type { ApplyEvent } from '../apply/events.js';
import { hashBody } from '../cache/hash.js';
import { type CheckedDefinition, checkDefinitions } from '../check/check-definitions.js';
import { type ProjectOptions, projectRuleOptions, readProject } from '../config/project.js';
import { type ResolvedTarget, resolveTarget, type TargetOptions } from '../config/target.js';
import type { OutsidePath } from '../definitions/find.js';
import { countDiagnostics, type Diagnostic } from '../diagnostic.js';
import { UsageError, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { checkKeyRouteAtBase } from '../git/base-config.js';
import { type BaseDefinitions, readBaseDefinitions, resolveBaseRef } from '../git/base-definitions.js';
import { buildPlan, type PlanInput, removedAtBase } from '../plan/build-plan.js';
import type { RunContext } from '../plan/command-line.js';
import { compareAhead } from '../plan/compare.js';
import { buildDesired, buildOnlyFilter, referencedGroups } from '../plan/desired.js';
import type { BaseVersion, DesiredWorkflow, Plan } from '../plan/types.js';
import {
  fetchObservations,
  openTargetSession,
  type RemoteObservation,
  type TargetSession,
} from '../remote/index.js';
import { acquireLock, type LockOptions } from '../state/lock.js';
import { StateStore } from '../state/store.js';
import type { StateFile } from '../state/types.js';
import { plural } from '../text.js';
import { SUPPRESSION_UNUSED } from '../validate/suppressions.js';
import { outsidePath } from './outside.js';
import { addPlanDetails } from './plan-details.js';
import { buildRunContext } from './run-context.js';

/** Step 1–3 of plan/sync/pull/state: config, target, definitions validated. No network yet. */
export interface LoadedRun {
  project: ProjectOptions;
  target: ResolvedTarget;
  /** The definitions `--only` selects (all without it), every one of them valid. */
  definitions: CheckedDefinition[];
  /** `--only` as a filter; undefined without it. */
  only?: (identifier: string, file?: string) => boolean;
  /** `--base` (or GITHUB_BASE_REF for plan): the definitions at the merge-base of HEAD and the base. */
  base?: BaseDefinitions;
  /** What the commands the run suggests must repeat of it (target, config and state file, base). */
  run: RunContext;
}

/** Where and how a run loads: the process's parts, and `--base` (for plan, GITHUB_BASE_REF without it). */
export interface LoadContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  base?: string;
  baseFromEnv?: boolean;
}

export async function loadRun(options: TargetOptions, context: LoadContext): Promise<LoadedRun> {
  const { cwd, env } = context;
  const project = readProject(options, cwd);
  const target = resolveTarget(project, options, env);
  const defaultDir = relative(cwd, project.workflowsDir) || '.';
  const paths = options.paths ?? [];
  const read = await checkDefinitions(paths, {
    cwd,
    defaultDir,
    sources: project.sources,
    rules: projectRuleOptions(project, options.reportUnusedDisable === true),
    keepDefinitions: true,
  });
  if (read.outside.length > 0) throw outsideError(read.outside, project);
  // Finish every check that can fail before the first request: invalid definitions stop here, all reported.
  const stopping = read.diagnostics.filter(stopsTheRun);
  if (stopping.length > 0) throw invalidDefinitions(stopping, read.sources);
  const only = selectionFilter(
    buildOnlyFilter(options.only),
    paths.length > 0 ? read.definitions : undefined,
  );
  const definitions = only ? read.definitions.filter((d) => only(d.identifier, d.file)) : read.definitions;
  // The base is read before any request too: a ref git does not know stops the run here.
  const ref = await resolveBaseRef(context.base, { cwd, env }, { fromEnv: context.baseFromEnv === true });
  const base =
    ref === undefined
      ? undefined
      : await readBaseDefinitions({
          cwd,
          env,
          ref,
          sources: project.sources,
          rules: projectRuleOptions(project),
        });
  // On a pull request the config is the branch's: the key goes only where the base's config already sends it.
  const configured = project.config?.config.targets?.[target.name];
  if (base !== undefined && project.config && target.kind === 'remote' && configured) {
    await checkKeyRouteAtBase({
      cwd,
      env,
      commit: base.commit,
      ref: base.ref,
      configPath: project.config.path,
      target: target.name,
      today: {
        ...(configured.baseUrl === undefined ? {} : { baseUrl: configured.baseUrl }),
        ...(configured.apiKeyEnv === undefined ? {} : { apiKeyEnv: configured.apiKeyEnv }),
      },
      baseUrlFromJob: target.baseUrlFrom !== undefined,
    });
  }
  const run = buildRunContext({
    project,
    target,
    options,
    ...(base === undefined ? {} : { base: base.ref }),
  });
  return { project, target, definitions, only, run, ...(base === undefined ? {} : { base }) };
}

/**
 * What stops plan and sync before any request: an error, and with `--report-unused-disable` a comment that silences
 * nothing (only asked for then), unless configured `info` (what `validate --max-warnings 0` fails on).
 */
function stopsTheRun(d: Diagnostic): boolean {
  return d.severity === 'error' || (d.code === SUPPRESSION_UNUSED && d.severity === 'warning');
}

function invalidDefinitions(stopping: Diagnostic[], sources: ReadonlyMap<string, string>): WfsyncError {
  const errors = countDiagnostics(stopping).errors;
  const unused = stopping.length - errors;
  const what = [
    ...(errors > 0 ? [`${plural(errors, 'problem')} in the definitions`] : []),
    ...(unused > 0
      ? [`${plural(unused, 'wfsync-disable comment')} that silence${unused === 1 ? 's' : ''} nothing`]
      : []),
  ];
  const rerun = unused > 0 ? 'wfsync validate --report-unused-disable' : 'wfsync validate';
  return new WfsyncError(`${what.join(' and ')}; nothing was sent (run "${rerun}" for the full report)`, {
    exitCode: ExitCode.Invalid,
    diagnostics: stopping,
    sources,
  });
}

/**
 * Paths act like `--only` (and with it, both must select): the definitions in them, and nothing else, so a
 * workflow recorded in state whose file is not among them is never taken for an orphan.
 */
function selectionFilter(
  only: LoadedRun['only'],
  selected: readonly CheckedDefinition[] | undefined,
): LoadedRun['only'] {
  if (selected === undefined) return only;
  const identifiers = new Set(selected.map((d) => d.identifier));
  return (identifier, file) => identifiers.has(identifier) && (only === undefined || only(identifier, file));
}

/** A path given to plan or sync that is not a definition of the project: a usage error naming each. */
function outsideError(outside: readonly OutsidePath[], project: ProjectOptions): UsageError {
  const listed = outside.map((o) => outsidePath(o, project)).join(', ');
  return new UsageError(`not workflow definitions of this project: ${listed}`);
}

/** Open the target and build desired bodies (group references resolved); every unresolvable one is reported. */
export async function openRun(
  loaded: LoadedRun,
  options: Parameters<typeof openTargetSession>[1],
): Promise<{ session: TargetSession; desired: DesiredWorkflow[]; base?: PlanInput['base'] }> {
  const session = await openTargetSession(loaded.target, options);
  try {
    const { definitions } = loaded;
    const { desired, diagnostics } = buildDesired(
      definitions,
      session.groups(referencedGroups(definitions)),
      hashBody,
    );
    if (diagnostics.length > 0) {
      throw new WfsyncError(
        `cannot resolve notification groups for target "${loaded.target.name}"; nothing was sent`,
        {
          exitCode: ExitCode.Invalid,
          diagnostics,
          sources: new Map(definitions.map((d) => [d.file, d.text])),
        },
      );
    }
    const base = loaded.base === undefined ? undefined : buildBaseVersions(loaded.base, session);
    return { session, desired, ...(base === undefined ? {} : { base }) };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** Fetch what the service holds for every desired and recorded identifier, then build the plan (pure). */
export async function planRun(
  loaded: LoadedRun,
  input: {
    session: TargetSession;
    desired: DesiredWorkflow[];
    state: StateFile;
    base?: PlanInput['base'];
    /** What each create will make, for a reader; a real sync, which reports what it created, skips it. */
    previews?: boolean;
    onEvent?: (event: ApplyEvent) => void;
    signal?: AbortSignal;
  },
): Promise<Plan> {
  const { only } = loaded;
  const recorded = Object.keys(input.state.workflows).filter((id) => !only || only(id));
  const state: StateFile = only
    ? filterState(input.state, new Set([...recorded, ...input.desired.map((d) => d.identifier)]))
    : input.state;
  const allow = loaded.target.allow;
  const base = input.base && only ? onlyBase(input.base, only) : input.base;
  // With delete allowed, a definition the base had whose file is gone is looked up too: it may be deleted.
  const removed = allow.has('delete')
    ? removedAtBase({ base, state }, new Map(input.desired.map((d) => [d.identifier, d])))
    : [];
  const observations = await fetchObservations({
    client: input.session.client,
    identifiers: [...input.desired.map((d) => d.identifier), ...recorded, ...removed],
    state,
    concurrency: loaded.target.concurrency,
    onEvent: input.onEvent,
    signal: input.signal,
    onObservation: compareOnArrival(input.desired),
  });
  input.onEvent?.({ type: 'phase', phase: 'plan' });
  const { target, baseUrl } = input.session;
  const shown = target.kind === 'local' ? 'embedded local service' : baseUrl;
  const plan = buildPlan({
    target: { name: target.name, baseUrl: shown },
    desired: input.desired,
    state,
    observations,
    run: loaded.run,
    allow,
    ...(base === undefined ? {} : { base }),
  });
  return addPlanDetails(plan, {
    definitions: loaded.definitions,
    desired: input.desired,
    session: input.session,
    previews: input.previews ?? true,
  });
}

/**
 * Compare each workflow found with its file as its answer arrives, while the other lookups are on the network:
 * buildPlan, after the last answer, finds the comparison made (compareAhead) instead of making them all.
 */
function compareOnArrival(desired: readonly DesiredWorkflow[]): (observation: RemoteObservation) => void {
  const byIdentifier = new Map(desired.map((d) => [d.identifier, d]));
  return (observation) => {
    const file = byIdentifier.get(observation.identifier);
    if (file === undefined) return;
    try {
      for (const lookup of [observation.byId, observation.byIdentifier])
        if (lookup?.status === 'found') compareAhead(file, lookup.workflow);
    } catch {
      // Said where it always was: buildPlan compares again and meets the same.
    }
  };
}

/**
 * The base's definitions built for this target as the files are (groups resolved, hashed), by identifier: what
 * buildPlan compares with. One whose group does not resolve here, or that was invalid there, is `unreadable`.
 */
function buildBaseVersions(base: BaseDefinitions, session: TargetSession): PlanInput['base'] {
  const versions = new Map<string, BaseVersion>();
  for (const [identifier, reason] of base.unreadable)
    versions.set(identifier, { status: 'unreadable', reason });
  const built = buildDesired(base.definitions, session.groups(referencedGroups(base.definitions)), hashBody);
  for (const d of built.desired) versions.set(d.identifier, { status: 'present', desired: d });
  for (const d of built.diagnostics) {
    const identifier = base.definitions.find((definition) => definition.file === d.file)?.identifier;
    if (identifier !== undefined) versions.set(identifier, { status: 'unreadable', reason: d.message });
  }
  return { ref: base.ref, commit: base.commit, versions };
}

/**
 * The identity a state file belongs to. The local target's emulator listens on a new port every run, so its state
 * is keyed by its data file instead of a URL.
 */
export function stateIdentity(target: ResolvedTarget): { target: string; baseUrl: string } {
  return { target: target.name, baseUrl: target.kind === 'local' ? 'embedded:local' : target.baseUrl! };
}

/** The target's state, locked while `use` runs. */
/** How long pull and state rebuild/forget wait for another run's lock (sync takes its own from `--lock-timeout`). */
export const STATE_LOCK_WAIT: LockOptions = { timeoutMs: 60_000 };

export async function withLockedState<T>(
  target: ResolvedTarget,
  lockOptions: LockOptions,
  use: (store: StateStore) => Promise<T>,
): Promise<T> {
  const lock = await acquireLock(target.statePath, lockOptions);
  try {
    return await use(await StateStore.open(target.statePath, stateIdentity(target)));
  } finally {
    await lock.release();
  }
}

/** The base's definitions `--only` (or the paths given) selects: no other removed file is planned for. */
function onlyBase(
  base: NonNullable<PlanInput['base']>,
  only: NonNullable<LoadedRun['only']>,
): PlanInput['base'] {
  return { ...base, versions: new Map([...base.versions].filter(([identifier]) => only(identifier))) };
}

function filterState(state: StateFile, keep: ReadonlySet<string>): StateFile {
  return {
    ...state,
    workflows: Object.fromEntries(Object.entries(state.workflows).filter(([id]) => keep.has(id))),
    pending: Object.fromEntries(Object.entries(state.pending).filter(([id]) => keep.has(id))),
  };
}
