/**
 * The files behind `wfsync pull`'s text references: what the loaded definitions refer to goes into
 * buildPulledIncludes (which decides what is kept in, or split out to, a file), and its writes are carried out here.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { toDisplayPath } from '../../config/read.js';
import { formatIncludeText, type IncludeStyle, includesOf } from '../../definitions/includes.js';
import type { LoadedDefinition } from '../../definitions/types.js';
import type { Json } from '../../json.js';
import { buildPulledIncludes, type PulledIncludes } from '../../pull/includes.js';
import { writeFileText } from '../../report/write-output.js';
import { displayPath } from '../../validate/rules/walk.js';

export interface PullIncludes extends PulledIncludes {
  /** Absolute path of every file to write, by the pointer of its write. */
  targets: Map<string, { absolute: string; style: IncludeStyle }>;
}

const NEW_FILE_STYLE: IncludeStyle = { bom: false, crlf: false };

/**
 * What to keep in files for one pulled workflow written at `path`: the references `known` (its current definition)
 * has, and with `splitContent`, text of more lines than that split out to new files next to it.
 */
export function planPullIncludes(input: {
  pulled: Json;
  path: string;
  known: LoadedDefinition | undefined;
  definitions: readonly LoadedDefinition[];
  splitContent: number | undefined;
}): PullIncludes {
  const { known, path } = input;
  const own = known ? includesOf(known) : [];
  const others = new Set(
    input.definitions.filter((d) => d !== known).flatMap((d) => includesOf(d).map((i) => i.absolute)),
  );
  const dir = dirname(path);
  const planned = buildPulledIncludes({
    pulled: input.pulled,
    ...(known ? { existing: known.value } : {}),
    includes: own.map((i) => ({
      pointer: i.pointer,
      path: i.path,
      text: i.text,
      shared: others.has(i.absolute),
    })),
    ...(input.splitContent === undefined
      ? {}
      : {
          split: {
            maxLines: input.splitContent,
            baseName: basename(path, extname(path)),
            taken: (file: string) => existsSync(resolve(dir, file)),
          },
        }),
  });
  const targets = new Map<string, { absolute: string; style: IncludeStyle }>();
  for (const write of planned.writes) {
    const include = own.find((i) => i.pointer === write.pointer);
    targets.set(write.pointer, {
      absolute: include?.absolute ?? resolve(dir, write.path),
      style: include?.style ?? NEW_FILE_STYLE,
    });
  }
  return { ...planned, targets };
}

/** Writes the files (before the definition, which must never refer to a file not yet there); their display paths. */
export async function writePullIncludes(includes: PullIncludes, cwd: string): Promise<string[]> {
  const written: string[] = [];
  for (const write of includes.writes) {
    const target = includes.targets.get(write.pointer);
    if (!target) continue;
    await writeFileText(target.absolute, formatIncludeText(write.text, target.style));
    written.push(toDisplayPath(cwd, target.absolute));
  }
  return written;
}

/** `steps[0].template.content` of each field whose file changed. */
export function changedIncludeFields(includes: PulledIncludes): string[] {
  return includes.writes.map((write) => displayPath(write.pointer));
}

/** ` (steps[0].template.content written inline: …)` for each reference given up; empty when none was. */
export function inlinedNotes(includes: PulledIncludes): string {
  return includes.inlined
    .map(({ pointer, reason }) => ` (${displayPath(pointer)} written inline: ${reason})`)
    .join('');
}
