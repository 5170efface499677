import { holdsCredential } from '../../credentials.js';
import { joinPointer } from '../../diagnostic.js';
import { isRecord } from '../../json.js';
import type { Rule } from './types.js';
import { displayPath } from './walk.js';

/**
 * A value that looks like a credential (credentials.ts: an `ApiKey`/`Bearer` token, the service's key shape, a long
 * high-entropy token), wherever it sits in the definition. A workflow's text goes to the service and from there to
 * subscribers, and plan prints and writes it (the plan file, the PR comment, previews): an error, so nothing is
 * shown or sent. The message never quotes the value, and code frames show it masked.
 */
export const credentialInDefinition: Rule = {
  code: 'credential-in-definition',
  defaultSeverity: 'error',
  description: 'no value may look like a credential (ApiKey/Bearer token, an API key, a long random token)',
  check(ctx) {
    // Iterative: a definition is bounded in depth, but a walk that cannot overflow needs no such argument. The
    // stack holds each value with its depth and key (parallel arrays, no tuple per node), and `path` the keys down
    // to the value being looked at: a pointer is built only for a finding, not for every value of every file.
    const values: unknown[] = [ctx.workflow];
    const depths: number[] = [0];
    const keys: Array<string | number> = [''];
    const path: Array<string | number> = [];
    const found: string[] = [];
    const push = (value: unknown, depth: number, key: string | number): void => {
      values.push(value);
      depths.push(depth);
      keys.push(key);
    };
    while (values.length > 0) {
      const value = values.pop();
      const depth = depths.pop() as number;
      const key = keys.pop() as string | number;
      // Entries past `depth` are left over from a deeper value met before: only the first `depth` are read.
      if (depth > 0) path[depth - 1] = key;
      if (typeof value === 'string') {
        if (holdsCredential(value)) found.push(joinPointer('', ...path.slice(0, depth)));
      } else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) push(value[i], depth + 1, i);
      } else if (isRecord(value)) {
        for (const name of Object.keys(value)) push(value[name], depth + 1, name);
      }
    }
    for (const pointer of found.reverse()) {
      ctx.report(
        pointer,
        `${displayPath(pointer)} looks like it holds a credential (not shown); a workflow's text is sent to the ` +
          'service and to subscribers and shown by plan: keep credentials out of definitions (or turn this rule ' +
          'off in `rules:` if the value is none)',
      );
    }
  },
};
