/**
 * `wfsync pull` decided before anything is written: for each workflow asked for, the definition file and its new
 * text, the files its text references get, the body state records the hash of, and the notes the output adds; or
 * why it cannot be pulled. Pure: the disk is seen only through the `PullFiles` view the caller passes.
 */

import type { CheckedDefinition } from '../check/check-definitions.js';
import { formatIncludeText, includesOf, replaceIncludes } from '../definitions/include-references.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import type { WorkflowResponse } from '../generated/workflow-response.js';
import type { Json } from '../json.js';
import { buildCreateBody, resolveGroup, type TargetGroups } from '../plan/create-body.js';
import { readRemote, WORKFLOW_SHAPE } from '../plan/shape.js';
import type { CreateWorkflowBody } from '../plan/types.js';
import { displayPath } from '../validate/rules/walk.js';
import {
  buildDefinitionFromRemote,
  buildDefinitionYaml,
  modelineLine,
  modelineSchemaIn,
  SCHEMA_MODELINE,
} from './convert.js';
import { identifierFileProblem, quoteIdentifier } from './file-name.js';
import { buildPulledIncludes, type PulledIncludes } from './includes.js';
import { mergePulledDefinition, type PullMergeResult } from './merge.js';

/** What the plan asks of the disk, answered by the caller (paths are absolute). */
export interface PullFiles {
  /** The file a workflow goes to: its definition's, when it has one; else `<identifier>.yaml` where new files go. */
  pathOf(identifier: string, known: CheckedDefinition | undefined): string;
  /** `relative`, as a file reference writes it, next to the definition at `path`. */
  beside(path: string, relative: string): string;
  exists(path: string): boolean;
  read(path: string): string;
  /** As output names it: relative to the working directory, `/` separators. */
  display(path: string): string;
  /**
   * The schema a new definition written at `path` names in its modeline, and why (docs/reference/editors.md, Editors); undefined: none
   * (it would not resolve there, or the editor settings map the file).
   */
  modeline(path: string): ChosenModeline | undefined;
  /** `--dir` was given and `path` is not inside it. */
  outsideDir(path: string): boolean;
}

export interface PullPlanInput {
  /** The target's name. */
  target: string;
  /** Each workflow asked for (id or identifier), with what the service returned for it, or why it could not. */
  fetched: ReadonlyArray<{ requested: string; workflow: WorkflowResponse | undefined; failed?: string }>;
  /** The loaded definitions: the file each identifier lives in, and the included files they share. */
  definitions: readonly CheckedDefinition[];
  groups: TargetGroups;
  files: PullFiles;
  /** Replace a file at the destination that holds another workflow. */
  force: boolean;
  /** Template text of more lines than this goes to a file of its own. */
  splitContent?: number | undefined;
}

/** A modeline chosen for a file pull writes whole: where its schema is (scaffold/schema-ref.ts decides). */
export interface ChosenModeline {
  source: 'given' | 'vendored' | 'installed';
  /** The schema as the modeline names it (relative to the file, or a URL). */
  schema: string;
}

/** The modeline a pulled file carries: one chosen for a file written whole, or the one its existing file keeps. */
export type PulledModeline = ChosenModeline | { source: 'file'; schema: string };

export interface PullPlan {
  target: string;
  items: PullItem[];
}

export type PullItem = PulledWorkflow | PullFailure;

export interface PullFailure {
  requested: string;
  /** Why nothing was written for it. */
  failed: string;
}

export interface PulledWorkflow {
  requested: string;
  identifier: string;
  /** The workflow's `_id` on the service. */
  id: string;
  /** The definition file, absolute and as output names it. */
  path: string;
  file: string;
  /** The file is new (else it held the workflow's definition, which is merged into). */
  created: boolean;
  /** The file's new text; absent when it already holds it. */
  text?: string;
  /** Dotted paths that changed (`steps[1].template.content`), the included files' fields too; none for a new file. */
  changed: string[];
  /** The schema the file's modeline names once pulled, and why; null when it has none. */
  modeline: PulledModeline | null;
  /** Set when the file could not be edited in place and gets the generated text: why. */
  rewritten?: string;
  /** Included files to write, before the definition (which must never refer to a file not yet there). */
  includes: Array<{ path: string; file: string; text: string }>;
  /** What state records the hash of; absent when the definition does not build one (a note says why). */
  body?: CreateWorkflowBody;
  notes: string[];
}

const NEW_FILE_STYLE = { bom: false, crlf: false };

export function buildPullPlan(input: PullPlanInput): PullPlan {
  const known = new Map(input.definitions.map((d) => [d.identifier, d]));
  // A workflow asked for twice (the same name again, or by its id and its identifier) is pulled once: every item
  // is planned against the disk as it was, so a second one would write the same file again.
  const planned = new Set<string>();
  const items: PullItem[] = [];
  for (const { requested, workflow, failed } of input.fetched) {
    if (failed !== undefined) {
      items.push({ requested, failed });
      continue;
    }
    if (!workflow) {
      items.push({ requested, failed: `not found on target "${input.target}"` });
      continue;
    }
    if (planned.has(workflow._id)) continue;
    const item = buildPulledWorkflow(input, requested, workflow, known);
    if (!('failed' in item)) planned.add(workflow._id);
    items.push(item);
  }
  return { target: input.target, items };
}

function buildPulledWorkflow(
  input: PullPlanInput,
  requested: string,
  actual: WorkflowResponse,
  known: ReadonlyMap<string, CheckedDefinition>,
): PullItem {
  const { files, groups } = input;
  const pulled = buildDefinitionFromRemote(actual, { groups });
  const identifier: unknown = pulled.triggers[0]?.identifier;
  if (identifier === undefined || identifier === null || identifier === '') {
    return { requested, failed: "the service's workflow has no trigger identifier; nothing written" };
  }
  // Service data never chooses a path: the identifier names the file only if it is a slug (file-name.ts).
  const unsafe = identifierFileProblem(identifier);
  if (unsafe !== undefined || typeof identifier !== 'string') {
    return {
      requested,
      failed: `the service's trigger identifier ${quoteIdentifier(identifier)} cannot name a file: ${unsafe}; nothing written`,
    };
  }
  const existing = known.get(identifier);
  const path = files.pathOf(identifier, existing);
  // Never silently replace a file that holds another workflow (or is not a definition at all).
  if (!existing && !input.force && files.exists(path)) {
    throw new WfsyncError(
      `${path} already exists and is not the definition of ${identifier}; use --force to overwrite it`,
      { exitCode: ExitCode.Usage },
    );
  }
  // Text the file keeps in files of its own (or --split-content moves out) goes there, not inline.
  const includes = buildIncludes(input, pulled as unknown as Json, path, existing);
  const target = includes.definition as unknown as WorkflowDefinition;
  const chosen = files.modeline(path);
  const fresh = buildDefinitionYaml(includes.definition).replace(
    `${SCHEMA_MODELINE}\n`,
    chosen === undefined ? '' : `${modelineLine(chosen.schema)}\n`,
  );
  // A workflow that has a file is merged into it; a new one gets the generated text.
  const current = existing ? files.read(path) : undefined;
  const merge = existing && mergeInto(current ?? '', existing, actual, { target, fresh, groups });
  // What the definition says once its references are read: what plan will hash.
  const kept = includes.kept.map(({ pointer, text }) => ({ pointer, value: text }));
  const built = buildCreateBody(
    replaceIncludes(merge?.definition ?? target, kept) as WorkflowDefinition,
    groups,
  );
  const included = includes.writes.map((write) => displayPath(write.pointer));
  return {
    requested,
    identifier,
    id: actual._id,
    path,
    file: files.display(path),
    created: !merge,
    ...(merge && merge.text === current ? {} : { text: merge?.text ?? fresh }),
    changed: merge ? [...new Set([...merge.changed, ...included])] : [],
    modeline: pulledModeline(chosen, merge && merge.rewritten === undefined ? merge.text : undefined),
    ...(merge?.rewritten === undefined ? {} : { rewritten: merge.rewritten }),
    includes: includes.files,
    ...('body' in built ? { body: built.body } : {}),
    notes: [
      ...(existing && files.outsideDir(path) ? ['its existing file; --dir only places new files'] : []),
      ...('body' in built ? [] : [`not recorded in state: ${built.problem}`]),
      ...includes.inlined.map(({ pointer, reason }) => `${displayPath(pointer)} written inline: ${reason}`),
    ],
  };
}

/** A file written whole has the chosen modeline; a merged one keeps its own (`kept`: its text once pulled). */
function pulledModeline(chosen: ChosenModeline | undefined, kept: string | undefined): PulledModeline | null {
  if (kept === undefined) return chosen ?? null;
  const schema = modelineSchemaIn(kept);
  return schema === undefined ? null : { source: 'file', schema };
}

type Includes = PulledIncludes & { files: PulledWorkflow['includes'] };

/**
 * What to keep in files for the workflow written at `path`: the references its current definition has, and with
 * `--split-content`, text of more lines than that split out to new files next to it; each write with its file.
 */
function buildIncludes(
  input: PullPlanInput,
  pulled: Json,
  path: string,
  known: CheckedDefinition | undefined,
): Includes {
  const { files, splitContent } = input;
  const own = known ? includesOf(known) : [];
  const others = new Set(
    input.definitions.filter((d) => d !== known).flatMap((d) => includesOf(d).map((i) => i.absolute)),
  );
  const planned = buildPulledIncludes({
    pulled,
    ...(known ? { existing: known.value } : {}),
    includes: own.map((i) => ({ ...i, shared: others.has(i.absolute) })),
    ...(splitContent === undefined
      ? {}
      : {
          split: {
            maxLines: splitContent,
            baseName: baseNameOf(files.display(path)),
            taken: (file: string) => files.exists(files.beside(path, file)),
          },
        }),
  });
  const written = planned.writes.map((write) => {
    const include = own.find((i) => i.pointer === write.pointer);
    const at = include?.absolute ?? files.beside(path, write.path);
    return {
      path: at,
      file: files.display(at),
      text: formatIncludeText(write.text, include?.style ?? NEW_FILE_STYLE),
    };
  });
  return { ...planned, files: written };
}

/**
 * A workflow that already has a file: the file is edited in place (comments, order and style kept), or rewritten
 * whole when that cannot be done safely; the file's group reference stays when it names the group the service holds.
 */
function mergeInto(
  current: string,
  existing: CheckedDefinition,
  actual: WorkflowResponse,
  pulled: { target: WorkflowDefinition; fresh: string; groups: TargetGroups },
): PullMergeResult {
  const resolved = resolveGroup(existing.workflow.notificationGroupId, pulled.groups);
  const serviceGroupId = readRemote(actual as unknown as Json, 'notificationGroupId', WORKFLOW_SHAPE);
  return mergePulledDefinition(current, pulled.target, {
    freshText: pulled.fresh,
    ...('id' in resolved ? { existingGroupId: resolved.id } : {}),
    ...(typeof serviceGroupId === 'string' ? { serviceGroupId } : {}),
  });
}

/** `order-shipped` of `workflows/order-shipped.yaml`: the name without its extension, as `path.basename` gives it. */
function baseNameOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
