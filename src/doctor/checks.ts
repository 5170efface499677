import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { stateIdentity } from '../api/pipeline.js';
import { type CheckedDefinition, checkDefinitions } from '../check/check-definitions.js';
import { type ProjectOptions, projectRuleOptions, readProject } from '../config/project.js';
import { type ResolvedTarget, readApiKey, resolveTarget, type TargetOptions } from '../config/target.js';
import { countDiagnostics } from '../diagnostic.js';
import { ExitCode } from '../exit-codes.js';
import { shownPath } from '../fs-boundary.js';
import { nodeLockEnv } from '../state/lock-env.js';
import { inspectLock } from '../state/lock-holder.js';
import { readState } from '../state/read.js';
import { plural } from '../text.js';
import { NODE_RANGE } from '../version.js';
import { checkCiRecipes } from './ci-recipes.js';
import { at, failedWith, ok, skipped, warn } from './results.js';
import { checkService } from './service-checks.js';
import {
  type CheckResult,
  DOCTOR_CHECKS,
  type DoctorCheck,
  type DoctorCheckId,
  type DoctorReport,
} from './types.js';

/** Where doctor runs: the process's parts, given, never read from globals (tests run it on a temp project). */
export interface DoctorContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The running Node's version (`process.versions.node`). */
  nodeVersion: string;
}

/** A lock whose holder on another host has not touched it for this long is stale (acquireLock's default). */
const LOCK_STALE_MS = 60_000;

/**
 * Run every check in order (types.ts DOCTOR_CHECKS) and return each one's answer. Reads the config, the definitions,
 * the state file and its lock, and asks the service at most three read-only questions; never writes. A problem the
 * user can fix is a check's answer; only a bug in wfsync throws.
 */
export async function readDoctorReport(options: TargetOptions, ctx: DoctorContext): Promise<DoctorReport> {
  const results = new Map<DoctorCheckId, CheckResult>();
  results.set('node', checkNode(ctx.nodeVersion));
  const loaded = readConfigAndTarget(options, ctx);
  results.set('config', loaded.result);
  const { project, target } = loaded;
  if (project === undefined || target === undefined) {
    const why = skipped('the config could not be read');
    for (const { id } of DOCTOR_CHECKS) if (!results.has(id)) results.set(id, why);
    return report(results);
  }
  const workflows = await checkWorkflows(project, ctx.cwd);
  results.set('workflows', workflows.result);
  const key = checkKeyVariable(target, ctx.env);
  results.set('api-key', key);
  if (key.status === 'fail') {
    const why = skipped(`no API key to ask the service with (see "${titleOf('api-key')}")`);
    for (const id of ['reachable', 'key-accepted', 'environment', 'notification-groups'] as const)
      results.set(id, why);
  } else {
    const service = await checkService(target, ctx.env, workflows.definitions);
    for (const [id, result] of Object.entries(service)) results.set(id as DoctorCheckId, result);
  }
  const state = await checkState(target, ctx.cwd);
  results.set('state', state);
  results.set('lock', await checkLock(target, ctx.cwd));
  results.set('ci-recipes', await checkCiRecipes(project.config?.dir ?? ctx.cwd));
  return { target: target.name, ...report(results) };
}

function report(results: ReadonlyMap<DoctorCheckId, CheckResult>): DoctorReport {
  const checks: DoctorCheck[] = DOCTOR_CHECKS.map(({ id, title }) => ({
    id,
    title,
    ...(results.get(id) ?? skipped('not run')),
  }));
  return { checks };
}

export function titleOf(id: DoctorCheckId): string {
  return DOCTOR_CHECKS.find((check) => check.id === id)?.title ?? id;
}

/** The running Node against package.json's `engines.node` (`>=MAJOR.MINOR`). */
export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [, wantMajor = 0, wantMinor = 0] = (/^>=(\d+)\.(\d+)/.exec(NODE_RANGE) ?? []).map(Number);
  const fits = major > wantMajor || (major === wantMajor && minor >= wantMinor);
  if (fits) return ok(`v${version} (wfsync needs ${NODE_RANGE})`);
  return {
    status: 'fail',
    message: `v${version} is older than wfsync needs (${NODE_RANGE})`,
    hint: `install Node ${wantMajor}.${wantMinor} or later (an LTS release), e.g. with nvm, fnm or your package manager`,
    exitCode: ExitCode.Failure,
  };
}

function readConfigAndTarget(
  options: TargetOptions,
  ctx: DoctorContext,
): { result: CheckResult; project?: ProjectOptions; target?: ResolvedTarget } {
  let project: ProjectOptions;
  try {
    project = readProject(options, ctx.cwd);
  } catch (error) {
    return { result: failedWith(error, 'fix the config file (its schema is schemas/config.schema.json)') };
  }
  let target: ResolvedTarget;
  try {
    target = resolveTarget(project, options, ctx.env);
  } catch (error) {
    return { project, result: failedWith(error) };
  }
  const where = target.kind === 'local' ? 'the embedded emulator' : target.baseUrl;
  const named = `target "${target.name}" (${where})`;
  if (project.config === undefined) {
    return {
      project,
      target,
      result: warn(
        `no wfsync.config.yaml from ${shownPath(ctx.cwd, ctx.cwd) || '.'} upwards: defaults apply, ${named}`,
        'run "wfsync init" to write one',
      ),
    };
  }
  const file = shownPath(ctx.cwd, project.config.path);
  return { project, target, result: ok(`${file} is valid; ${named}`) };
}

async function checkWorkflows(
  project: ProjectOptions,
  cwd: string,
): Promise<{ result: CheckResult; definitions?: CheckedDefinition[] }> {
  let checked: Awaited<ReturnType<typeof checkDefinitions>>;
  try {
    checked = await checkDefinitions([], {
      cwd,
      defaultDir: relative(cwd, project.workflowsDir) || '.',
      sources: project.sources,
      rules: projectRuleOptions(project),
      keepDefinitions: true,
    });
  } catch (error) {
    return { result: failedWith(error) };
  }
  const where = shownPath(cwd, project.workflowsDir) || '.';
  const count = plural(checked.files.length, 'definition');
  const { errors, warnings } = countDiagnostics(checked.diagnostics);
  if (checked.files.length === 0) {
    return {
      result: warn(
        `no definitions found in ${where}`,
        'run "wfsync new <identifier>" to write one, or set workflowsDir in the config',
      ),
      definitions: [],
    };
  }
  if (errors > 0) {
    const first = checked.diagnostics.find((d) => d.severity === 'error')!;
    return {
      result: {
        status: 'fail',
        message: `${count} in ${where}: ${plural(errors, 'problem')}; the first: ${at(first)}`,
        hint: 'run "wfsync validate" for the full report',
        exitCode: ExitCode.Invalid,
      },
    };
  }
  const warned = warnings > 0 ? ` (${plural(warnings, 'warning')}: see "wfsync validate")` : '';
  return {
    result: ok(`${count} in ${where}, valid${warned}`),
    definitions: checked.definitions,
  };
}

/** Whether the variable the key is read from is set: its name, never its value nor any part of it. */
function checkKeyVariable(target: ResolvedTarget, env: NodeJS.ProcessEnv): CheckResult {
  if (target.kind === 'local') return ok('not needed: the local target is the embedded emulator');
  try {
    readApiKey(target, env);
  } catch (error) {
    const hint = `set ${target.apiKeyEnv} to the API key of the service's Development environment (Settings > API Keys)`;
    return failedWith(error, hint);
  }
  const own = (env[target.apiKeyEnv] ?? '').trim() !== '';
  const from = own ? target.apiKeyEnv : `WFSYNC_API_KEY (${target.apiKeyEnv} is not set)`;
  return ok(`$${from} is set (its value is never shown)`);
}

async function checkState(target: ResolvedTarget, cwd: string): Promise<CheckResult> {
  const file = shownPath(cwd, target.statePath);
  if (!existsSync(target.statePath)) return ok(`${file}: none yet (the first sync writes it)`);
  try {
    const state = await readState(target.statePath, stateIdentity(target));
    const pending = Object.keys(state.pending).length;
    const interrupted = pending > 0 ? `, ${plural(pending, 'interrupted create')} the next sync settles` : '';
    return ok(`${file}: ${plural(Object.keys(state.workflows).length, 'workflow')} recorded${interrupted}`);
  } catch (error) {
    return failedWith(error);
  }
}

async function checkLock(target: ResolvedTarget, cwd: string): Promise<CheckResult> {
  const path = `${target.statePath}.lock`;
  const file = shownPath(cwd, path);
  let seen: Awaited<ReturnType<typeof inspectLock>>;
  try {
    seen = await inspectLock(path, LOCK_STALE_MS, nodeLockEnv);
  } catch (error) {
    return failedWith(error);
  }
  if (seen.state === 'free') return ok('free');
  const holder = seen.holder;
  const who =
    holder === undefined
      ? `${file} (its holder unreadable), last touched ${seen.mtime.toISOString()}`
      : `${file}: "${holder.command}", pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}`;
  if (seen.stale) {
    return warn(
      `stale: ${who}, which is no longer running`,
      `the next run that takes the lock removes it by itself; or delete ${file}`,
    );
  }
  return warn(`held by ${who}`, 'a run is in progress: sync, pull and state rebuild wait for it to finish');
}
