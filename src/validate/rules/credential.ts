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
    // Iterative: a definition is bounded in depth, but a walk that cannot overflow needs no such argument.
    const stack: Array<[unknown, string]> = [[ctx.workflow, '']];
    const found: string[] = [];
    while (stack.length > 0) {
      const [value, pointer] = stack.pop() as [unknown, string];
      if (typeof value === 'string') {
        if (holdsCredential(value)) found.push(pointer);
      } else if (Array.isArray(value)) {
        value.forEach((item, i) => {
          stack.push([item, joinPointer(pointer, i)]);
        });
      } else if (isRecord(value)) {
        for (const [key, child] of Object.entries(value)) stack.push([child, joinPointer(pointer, key)]);
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
