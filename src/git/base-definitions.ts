/**
 * `plan --base`: the definitions as they were at the merge-base of HEAD and a ref, read from git (never from the
 * working tree) and checked by the same pipeline as the files (definitions/parse.ts, includes resolved from the same
 * commit's texts, check/check-definitions.ts). The texts are untrusted like any definition: the same size, depth and
 * alias limits, strict UTF-8, included paths kept inside the project.
 */
import path from 'node:path';
import { type CheckedDefinition, checkReadDefinitions } from '../check/check-definitions.js';
import type { DefinitionSources } from '../definitions/find.js';
import {
  decodeIncludeBytes,
  type IncludeRead,
  type IncludeRequest,
  includePathProblem,
} from '../definitions/include-file.js';
import { findIncludeReferences } from '../definitions/include-references.js';
import { readDefinitionIncludes } from '../definitions/includes.js';
import {
  fileTooLargeMessage,
  formatBytes,
  type LoadLimits,
  resolveLoadLimits,
} from '../definitions/limits.js';
import { parseDefinition } from '../definitions/parse.js';
import type { ParseResult } from '../definitions/types.js';
import { FILE_START } from '../diagnostic.js';
import { findProjectRoot } from '../fs-boundary.js';
import { compareText } from '../text.js';
import { identifierOf } from '../validate/rules/identifier-duplicate.js';
import type { RuleOptions } from '../validate/rules/index.js';
import {
  failureReason,
  GitBaseError,
  type GitContext,
  gitLine,
  listTree,
  openBlobReader,
  runGit,
  type TreeEntry,
} from './git.js';

export interface BaseOptions {
  cwd: string;
  /** The run's environment, git's whole environment (GitContext). */
  env: GitContext['env'];
  /** The ref as given (`--base`), or as GITHUB_BASE_REF resolved (resolveBaseRef). */
  ref: string;
  /**
   * The project's folders and patterns (config `workflowsDir` and `exclude`): the definitions are the base's files
   * they take, at today's paths.
   */
  sources: DefinitionSources;
  rules: RuleOptions;
  limits?: Partial<LoadLimits>;
}

export interface BaseDefinitions {
  ref: string;
  /** The merge-base of HEAD and `ref`. */
  commit: string;
  /** The definitions valid at the base, by the display path of today's files. */
  definitions: CheckedDefinition[];
  /** Every identifier some file declared at the base (valid or not) → its files. */
  identifiers: ReadonlyMap<string, string[]>;
  /** identifier → why its base version cannot be used (invalid there, declared twice). */
  unreadable: ReadonlyMap<string, string>;
}

/** Regular files only: a link or a submodule at the base is not followed. */
const REGULAR = new Set(['100644', '100755']);
const DEFINITION_FILE = /\.ya?ml$/i;

/**
 * The base ref when none is given: with `fromEnv`, GITHUB_BASE_REF (a pull request's base branch), as `origin/<name>`
 * when that resolves (a CI checkout has no local branch for it), else `<name>`. Undefined when neither is set.
 */
export async function resolveBaseRef(
  given: string | undefined,
  at: GitContext,
  options: { fromEnv: boolean },
): Promise<string | undefined> {
  if (given !== undefined) return given;
  const name = options.fromEnv ? at.env.GITHUB_BASE_REF?.trim() : undefined;
  if (!name) return undefined;
  const remote = await runGit(at, [
    'rev-parse',
    '--verify',
    '--quiet',
    `refs/remotes/origin/${name}^{commit}`,
  ]);
  return remote.ok ? `origin/${name}` : name;
}

/** The definitions at the merge-base of HEAD and `options.ref`. Git problems are GitBaseError (exit 64). */
export async function readBaseDefinitions(options: BaseOptions): Promise<BaseDefinitions> {
  const { cwd, ref } = options;
  const at: GitContext = { cwd, env: options.env };
  if (ref === '' || ref.startsWith('-') || /[\0\n]/.test(ref)) {
    throw new GitBaseError(`--base "${ref}" is not a git ref`);
  }
  const limits = resolveLoadLimits(options.limits);
  const inside = await runGit(at, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok && inside.code === 'ENOENT')
    throw new GitBaseError(`--base ${ref}: ${failureReason(inside)}`);
  if (!inside.ok || inside.stdout.toString().trim() !== 'true') {
    throw new GitBaseError(
      `--base ${ref}: ${cwd} is not inside a git work tree, so there is no base to read`,
    );
  }
  const shallow = (await gitLine(at, ['rev-parse', '--is-shallow-repository'], 'cannot ask git')) === 'true';
  const fetchHint = shallow
    ? ' This is a shallow clone: fetch the base (actions/checkout with fetch-depth: 0, or git fetch origin <branch>).'
    : '';
  const resolved = await runGit(at, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!resolved.ok) throw new GitBaseError(`--base ${ref}: git knows no commit by that name.${fetchHint}`);
  const merged = await runGit(at, ['merge-base', 'HEAD', resolved.stdout.toString().trim()]);
  if (!merged.ok) {
    throw new GitBaseError(
      `--base ${ref}: HEAD and ${ref} have no common commit in this clone.${fetchHint || ' Is it the right branch?'}`,
    );
  }
  const commit = merged.stdout.toString().trim();
  const prefix = await gitLine(at, ['rev-parse', '--show-prefix'], 'cannot ask git');
  const tree = (absolute: string): string | undefined => {
    const relative = path.relative(cwd, absolute).split(path.sep).join('/');
    const joined = path.posix.normalize(path.posix.join(prefix, relative));
    return joined === '..' || joined.startsWith('../') ? undefined : joined === '.' ? '' : joined;
  };
  // Included files may live anywhere in the project: list its whole tree (or the repository's, when it is larger).
  const rootDir = tree(findProjectRoot(cwd).dir) ?? '';
  const roots = options.sources.roots.flatMap((root) => tree(root) ?? []);
  if (roots.length === 0)
    return { ref, commit, definitions: [], identifiers: new Map(), unreadable: new Map() };
  const entries = await listTree(at, commit, rootDir);
  const byPath = new Map(entries.filter((e) => REGULAR.has(e.mode)).map((e) => [e.path, e]));
  const display = (treePath: string) => path.posix.relative(prefix.replace(/\/$/, '') || '.', treePath);
  const definitionEntries = [...byPath.values()]
    .filter((e) =>
      isDefinitionPath(e.path, roots, (file) => options.sources.classify(path.resolve(cwd, display(file)))),
    )
    .sort((a, b) => compareText(display(a.path), display(b.path)));

  const blobs = openBlobReader(at);
  try {
    const readable = definitionEntries.filter((e) => e.size <= limits.maxBytes);
    const texts = await blobs.read(readable.map((e) => e.oid));
    const parsed = definitionEntries.map((entry): ParseResult => {
      const file = display(entry.path);
      const bytes = texts.get(entry.oid);
      if (bytes === undefined) {
        const message =
          entry.size > limits.maxBytes ? fileTooLargeMessage(entry.size, limits.maxBytes) : 'not readable';
        return {
          diagnostics: [
            {
              code: 'file-too-large',
              severity: 'error',
              message,
              file,
              pointer: '',
              ...FILE_START,
            },
          ],
        };
      }
      return parseDefinition(file, bytes, limits);
    });
    // Every file a base definition includes, read in one more round of the same cat-file.
    const wanted = new Map<string, TreeEntry>();
    parsed.forEach((result, i) => {
      const definitionDir = path.posix.dirname(definitionEntries[i]!.path);
      for (const reference of findIncludeReferences(result.definition?.value)) {
        const entry = byPath.get(path.posix.normalize(path.posix.join(definitionDir, reference.path)));
        if (entry !== undefined && entry.size <= limits.maxBytes) wanted.set(entry.oid, entry);
      }
    });
    const included = await blobs.read([...wanted.keys()]);
    const readInclude = (request: IncludeRequest): IncludeRead => {
      const invalid = includePathProblem(request.written);
      if (invalid) return { ok: false, code: 'include-path-invalid', message: invalid };
      const absolute = path.resolve(request.definitionDir, request.written);
      const at = tree(absolute);
      if (at === undefined || (rootDir !== '' && !at.startsWith(`${rootDir}/`))) {
        return {
          ok: false,
          code: 'include-outside-project',
          message: `"${request.written}" leads outside the project`,
        };
      }
      const entry = byPath.get(at);
      if (entry === undefined)
        return {
          ok: false,
          code: 'include-not-found',
          message: `${request.display} does not exist at the base`,
        };
      if (entry.size > request.maxBytes) {
        const message = `${request.display} is ${formatBytes(entry.size)}, over the ${formatBytes(request.maxBytes)} limit for an included file`;
        return { ok: false, code: 'include-too-large', message };
      }
      const bytes = included.get(entry.oid);
      if (bytes === undefined)
        return { ok: false, code: 'include-unreadable', message: `cannot read ${request.display}` };
      return decodeIncludeBytes(bytes, request.display, absolute);
    };
    const resolved = parsed.map((result, i) =>
      readDefinitionIncludes(result, {
        definitionPath: path.resolve(cwd, display(definitionEntries[i]!.path)),
        maxBytes: limits.maxBytes,
        readInclude,
      }),
    );
    const checked = checkReadDefinitions(
      definitionEntries.map((e) => display(e.path)),
      resolved,
      options.rules,
      cwd,
    );
    // A definition dropped for an include it could not resolve still declared its identifier there.
    const declared = new Map<string, string>();
    parsed.forEach((result, i) => {
      const identifier = result.definition ? identifierOf(result.definition.value) : undefined;
      if (identifier !== undefined) declared.set(display(definitionEntries[i]!.path), identifier);
    });
    return { ref, commit, ...usable(checked, declared) };
  } finally {
    blobs.close();
  }
}

/**
 * `workflows/a/b.yaml` under one of the roots (tree paths), skipping hidden entries and node_modules as the file
 * search does, and taken by the project's patterns (`classify`, asked with the tree path) as a definition.
 */
function isDefinitionPath(
  treePath: string,
  roots: readonly string[],
  classify: (treePath: string) => ReturnType<DefinitionSources['classify']>,
): boolean {
  const dir = roots.find((root) => root === '' || treePath.startsWith(`${root}/`));
  if (dir === undefined) return false;
  const below = dir === '' ? treePath : treePath.slice(dir.length + 1);
  const segments = below.split('/');
  if (segments.some((s) => s.startsWith('.') || s === 'node_modules')) return false;
  return DEFINITION_FILE.test(segments[segments.length - 1]!) && classify(treePath) === 'definition';
}

function usable(
  checked: ReturnType<typeof checkReadDefinitions>,
  declared: ReadonlyMap<string, string>,
): Omit<BaseDefinitions, 'ref' | 'commit'> {
  const identifiers = new Map(checked.identifiers);
  for (const [file, identifier] of declared) {
    const files = identifiers.get(identifier) ?? [];
    if (!files.includes(file)) identifiers.set(identifier, [...files, file].sort(compareText));
  }
  const unreadable = new Map<string, string>();
  const valid = new Set(checked.definitions.map((d) => d.file));
  for (const [identifier, files] of identifiers) {
    if (files.length > 1)
      unreadable.set(identifier, `${files.length} files declared it there (${files.join(', ')})`);
    else if (!valid.has(files[0]!)) {
      const first = checked.diagnostics.find((d) => d.severity === 'error' && d.file === files[0]);
      unreadable.set(
        identifier,
        `${files[0]} was not a valid definition there${first ? ` (${first.message})` : ''}`,
      );
    }
  }
  const definitions = checked.definitions.filter((d) => !unreadable.has(d.identifier));
  return { definitions, identifiers, unreadable };
}
