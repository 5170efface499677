import type * as Diff from 'diff';
import { yamlLib } from '../definitions/yaml-lib.js';
import { onFirstUse } from '../derive/first-use.js';

/** jsdiff, loaded the first time a diff is made: a plan with nothing differing never needs it. */
const diffLib = onFirstUse<typeof Diff>('diff');

/** Block YAML, no folding (a changed long line stays one -/+ pair), no anchors for repeated values. */
const YAML_OPTIONS = { aliasDuplicateObjects: false, lineWidth: 0 } as const;

export interface ProjectionDiffInput {
  /** The service's projection (---). */
  service: unknown;
  /** The file's projection (+++); undefined: no file (a delete, `fileName` then `/dev/null`). */
  file: unknown;
  /** The workflow's name on the service, for the `--- service: <name>` header. */
  serviceName: string;
  /** Display path of the definition, for the `+++` header. */
  fileName: string;
}

/**
 * A diff header's name (`--- service: <name>`, `+++ <file>`), on its one line: the service's name (and a file's) may
 * hold line breaks, which would start lines of the diff that it does not have (a forged `-`/`+` pair a reviewer reads
 * as a change). They are shown as symbols (`␊`, `␍`); the formats make the rest of the text safe.
 */
export function diffHeaderName(name: string): string {
  return name.replace(/[\r\n]/g, (ch) => (ch === '\r' ? '\u240d' : '\u240a'));
}

/**
 * Unified diff (3 lines of context) of the YAML of two projections. No timestamps: the same input, the same text.
 * yaml's stringify recurses (nested mappings overflow Node's default stack past about 680 levels): both projections
 * are depth-checked data, within MAX_JSON_DEPTH (compare.ts).
 */
export function buildProjectionDiff(input: ProjectionDiffInput): string {
  return diffLib().createTwoFilesPatch(
    diffHeaderName(`service: ${input.serviceName}`),
    diffHeaderName(input.fileName),
    yamlLib().stringify(input.service, YAML_OPTIONS),
    input.file === undefined ? '' : yamlLib().stringify(input.file, YAML_OPTIONS),
    undefined,
    undefined,
    { context: 3, headerOptions: diffLib().FILE_HEADERS_ONLY },
  );
}
