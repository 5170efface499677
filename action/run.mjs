#!/usr/bin/env node
/**
 * What the wfsync GitHub Action (action.yml) runs. Node built-ins only: the action runs from a checkout of this
 * repository, with nothing installed. Two steps, so the outputs are set even when the job is to fail:
 *   node run.mjs run      run wfsync with the inputs and write the outputs; always ends 0 (the code is the
 *                         `exit-code` output)
 *   node run.mjs relay    `wfsync ci-relay` (the same wfsync), the relay every CI runs: it writes the job summary and
 *                         the sticky pull request comment from what the run printed as Markdown (and the
 *                         `comment-url` output), reads the document the run wrote and passes or fails the job as
 *                         for every CI (0 and 2 pass, 6 names the workflows), so those rules live once, in wfsync;
 *                         the token reaches it as WFSYNC_GITHUB_TOKEN, never wfsync's own run
 * Inputs come only from the environment (INPUT_*, set by action.yml's `env:`), never from text pasted into a shell;
 * `args` is split without a shell (args.mjs) and wfsync is spawned with an argv array.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { splitArgs } from './args.mjs';

const FORMATS = {
  validate: ['human', 'json', 'github', 'junit', 'sarif'],
  plan: ['human', 'json', 'markdown', 'github'],
  sync: ['human', 'json', 'markdown', 'github'],
};
/** The plan summary's counts, as output name → summary key. */
const COUNTS = {
  create: 'create',
  delete: 'delete',
  promote: 'promote',
  'in-sync': 'inSync',
  drifted: 'drifted',
  'changed-locally': 'changedLocally',
  'missing-remotely': 'missingRemotely',
  conflict: 'conflict',
  orphaned: 'orphaned',
  error: 'error',
};
/** Sync's own counts (its summary; the counts above come from the plan it carried out), as output name → key. */
const SYNC_COUNTS = {
  created: 'created',
  deleted: 'deleted',
  promoted: 'promoted',
  failed: 'failed',
  skipped: 'skipped',
};
/** An npm version, range or dist-tag: one argv element, never a path, URL or flag. */
const VERSION_SPEC = /^[0-9A-Za-z^~<>=*][0-9A-Za-z.^~<>=|*+ -]*$/;

class UsageError extends Error {}

const env = process.env;

/**
 * An annotation message's data as GitHub's workflow commands escape it (`%`, CR, LF): the line cannot be ended or
 * forged, and GitHub shows the text as it was.
 */
const escapeData = (text) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const input = (name) => (env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
const say = (line) => process.stdout.write(`${line}\n`);

function setOutput(name, value) {
  if (!env.GITHUB_OUTPUT) return;
  const delimiter = `wfsync_${randomBytes(12).toString('hex')}`;
  appendFileSync(env.GITHUB_OUTPUT, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

function isPullRequest() {
  return env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target';
}

/** The inputs, checked, with the defaults that depend on the command and the event. */
function readInputs() {
  const command = input('command') || 'plan';
  if (!(command in FORMATS))
    throw new UsageError(`command must be validate, plan or sync (got "${command}")`);
  const commentInput = input('comment');
  if (!['', 'true', 'false'].includes(commentInput)) throw new UsageError('comment must be true or false');
  if (commentInput === 'true' && command !== 'plan') throw new UsageError('comment is for the plan command');
  const comment = commentInput === '' ? command === 'plan' && isPullRequest() : commentInput === 'true';
  const previewsInput = input('previews');
  if (!['', 'true', 'false'].includes(previewsInput)) throw new UsageError('previews must be true or false');
  if (previewsInput === 'true' && command !== 'plan')
    throw new UsageError('previews is for the plan command');
  const previews = previewsInput === '' ? command === 'plan' && isPullRequest() : previewsInput === 'true';
  const format = input('format') || (command === 'validate' ? 'github' : comment ? 'markdown' : 'github');
  if (!FORMATS[command].includes(format)) {
    throw new UsageError(
      `format must be one of ${FORMATS[command].join(', ')} for ${command} (got "${format}")`,
    );
  }
  if (comment && format !== 'markdown')
    throw new UsageError('the comment is the plan in markdown: drop format');
  const maxWarnings = input('max-warnings');
  if (maxWarnings !== '' && (command !== 'validate' || !/^\d+$/.test(maxWarnings))) {
    throw new UsageError('max-warnings is a whole number, for the validate command');
  }
  const baseRef = input('base-ref');
  if (baseRef !== '' && command === 'validate') throw new UsageError('base-ref is for plan and sync');
  const version = input('version');
  if (version !== '' && version !== 'project' && !VERSION_SPEC.test(version)) {
    throw new UsageError(`version must be an npm version, range or tag, or "project" (got "${version}")`);
  }
  let extra;
  try {
    extra = splitArgs(env.INPUT_ARGS ?? '');
  } catch (error) {
    throw new UsageError(error.message);
  }
  const target = input('target');
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const cwd = resolve(workspace, input('working-directory') || '.');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    throw new UsageError(`working-directory ${input('working-directory')} is not a directory`);
  }
  return { command, target, baseRef, format, comment, previews, maxWarnings, version, extra, cwd };
}

/**
 * How wfsync is started: the project's own install, or the version asked for (default: this action's) via npm.
 * `quiet`: the relay step starts the same wfsync again, without saying so twice.
 */
function wfsyncCommand(inputs, quiet = false) {
  const tell = quiet ? () => {} : say;
  if (inputs.version === 'project') {
    const bin = join(inputs.cwd, 'node_modules', '.bin', 'wfsync');
    if (!existsSync(bin)) {
      throw new UsageError('version: project, but node_modules/.bin/wfsync is missing: run npm ci first');
    }
    tell('wfsync: the version installed in the project (node_modules/.bin/wfsync)');
    return { file: bin, args: [] };
  }
  let version = inputs.version;
  if (version === '') {
    const manifest = JSON.parse(readFileSync(join(env.GITHUB_ACTION_PATH ?? '.', 'package.json'), 'utf8'));
    version = String(manifest.version);
  } else if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    tell(
      `::notice title=wfsync::version "${escapeData(version)}" is not an exact version: pin one for repeatable runs.`,
    );
  }
  tell(`wfsync ${version} (npm exec wfsync@${version})`);
  return { file: 'npm', args: ['exec', '--yes', `--package=wfsync@${version}`, '--', 'wfsync'] };
}

function wfsyncArgs(inputs, files) {
  const args = [inputs.command];
  if (inputs.target !== '') args.push('--target', inputs.target);
  args.push('--format', inputs.format);
  if (inputs.baseRef !== '') args.push('--base', inputs.baseRef);
  if (inputs.command === 'plan') args.push('--out', files.planJson);
  if (inputs.command === 'sync') args.push('--out', files.syncJson);
  if (inputs.previews) args.push('--previews', files.previews);
  if (inputs.maxWarnings !== '') args.push('--max-warnings', inputs.maxWarnings);
  return [...args, ...inputs.extra];
}

/** Runs wfsync; stdout shown in the log and, when `capture`, kept. Resolves with the exit code. */
function runWfsync(command, args, cwd, capture) {
  const childEnv = { ...env };
  for (const name of Object.keys(childEnv)) if (name.startsWith('INPUT_')) delete childEnv[name];
  return new Promise((done) => {
    const child = spawn(command.file, [...command.args, ...args], {
      cwd,
      env: childEnv,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.on('error', (error) => {
      say(`::error title=wfsync::could not start ${command.file}: ${escapeData(error.message)}`);
      done({ code: 127, stdout: '' });
    });
    child.on('close', (code) => done({ code: code ?? 1, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

function readDocument(path) {
  try {
    const document = JSON.parse(readFileSync(path, 'utf8'));
    return document !== null && typeof document === 'object' && typeof document.summary === 'object'
      ? document
      : undefined;
  } catch {
    return undefined;
  }
}

/** A plan document (`plan --out`, `sync --dry-run --out`), or the plan a sync result carried out. */
function readPlan(path) {
  const document = readDocument(path);
  if (document === undefined || !Array.isArray(document.outcomes)) return document;
  const plan = document.plan;
  return plan !== null && typeof plan === 'object' && typeof plan.summary === 'object' ? plan : undefined;
}

/** A sync result document (`sync --out`); undefined for anything else (a `--dry-run`'s plan). */
function readSyncResult(path) {
  const document = readDocument(path);
  return document !== undefined && Array.isArray(document.outcomes) ? document : undefined;
}

const count = (value) => (Number.isInteger(value) ? String(value) : '');

async function run() {
  let inputs;
  let command;
  try {
    inputs = readInputs();
    command = wfsyncCommand(inputs);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`::error title=wfsync action::${escapeData(error.message)}`);
    setOutput('exit-code', '64');
    setOutput('needs-person', 'false');
    return;
  }
  // The inputs passed: the relay step may start the same wfsync.
  setOutput('started', 'true');
  const dir = join(env.RUNNER_TEMP || tmpdir(), `wfsync-${randomBytes(6).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const files = {
    planJson: join(dir, 'plan.json'),
    syncJson: join(dir, 'sync.json'),
    markdown: join(dir, 'plan.md'),
    // One folder per job (docs/guides/github.md: the action's previews), so the artifact's paths read well.
    previews: join(env.RUNNER_TEMP || tmpdir(), 'wfsync-previews'),
  };
  // The folder holds this plan's previews only: an earlier step's (another target's) would pass for this one's.
  if (inputs.previews) rmSync(files.previews, { recursive: true, force: true });
  const markdown = inputs.format === 'markdown';
  const { code, stdout } = await runWfsync(command, wfsyncArgs(inputs, files), inputs.cwd, markdown);
  setOutput('exit-code', String(code));
  setOutput('needs-person', String(code === 6));
  const outFile = inputs.command === 'sync' ? files.syncJson : files.planJson;
  const plan = inputs.command === 'validate' ? undefined : readPlan(outFile);
  for (const [name, key] of Object.entries(COUNTS)) setOutput(name, count(plan?.summary?.[key]));
  const synced = inputs.command === 'sync' ? readSyncResult(files.syncJson) : undefined;
  for (const [name, key] of Object.entries(SYNC_COUNTS)) setOutput(name, count(synced?.summary?.[key]));
  setOutput('plan-file', existsSync(files.planJson) ? files.planJson : '');
  setOutput('sync-file', existsSync(files.syncJson) ? files.syncJson : '');
  const previewsWritten = inputs.previews && existsSync(join(files.previews, 'index.html'));
  setOutput('previews-dir', previewsWritten ? files.previews : '');
  if (markdown) {
    appendFileSync(files.markdown, stdout);
    setOutput('markdown-file', files.markdown);
  }
}

/**
 * The relay step: `wfsync ci-relay` writes the summary and the comment (src/ci/github-comment.ts), says the verdict and
 * ends the step with the job's code (src/ci/verdict.ts).
 */
async function relay() {
  const recorded = env.WFSYNC_EXIT_CODE ?? '';
  if (!/^\d+$/.test(recorded)) {
    say('::error title=wfsync action::the run step recorded no exit code: see its log.');
    return 1;
  }
  const code = Number(recorded);
  // The run step refused the inputs (and said why): nothing ran, nothing to relay.
  if (env.WFSYNC_STARTED !== 'true') return code === 0 ? 64 : code;
  let inputs;
  let command;
  try {
    inputs = readInputs();
    command = wfsyncCommand(inputs, true);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return code === 0 ? 64 : code; // the run step said why
  }
  // 127: wfsync could not be started (the run step said so); the relay, the same wfsync, could not either.
  if (code === 127) return code;
  const file = env.WFSYNC_PLAN_FILE || env.WFSYNC_SYNC_FILE;
  const args = ['ci-relay', '--provider', 'github', '--command', inputs.command, '--exit-code', String(code)];
  if (file) args.push('--document', file);
  if (inputs.target !== '') args.push('--target', inputs.target);
  if (env.WFSYNC_MARKDOWN_FILE) {
    args.push('--markdown', env.WFSYNC_MARKDOWN_FILE);
    if (!inputs.comment) args.push('--no-comment');
  }
  const relayed = await runWfsync(command, args, inputs.cwd, false);
  return relayed.code;
}

const mode = process.argv[2];
if (mode === 'run') {
  await run();
} else if (mode === 'relay') {
  process.exitCode = await relay();
} else {
  say('usage: node run.mjs run|relay');
  process.exitCode = 64;
}
