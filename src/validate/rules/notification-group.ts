import type { Rule } from './types.js';
import { listWords, quote } from './walk.js';

const POINTER = '/notificationGroupId';
const PREFIX = 'group:';

function groupName(notificationGroupId: unknown): string | undefined {
  return typeof notificationGroupId === 'string' && notificationGroupId.startsWith(PREFIX)
    ? notificationGroupId.slice(PREFIX.length)
    : undefined;
}

export const notificationGroupUnknown: Rule = {
  code: 'notification-group-unknown',
  defaultSeverity: 'error',
  description: 'a `group:NAME` notificationGroupId must name a group defined by the config targets',
  check(ctx) {
    const name = groupName(ctx.workflow.notificationGroupId);
    const known = ctx.options.notificationGroups;
    if (name === undefined || known === undefined || known.includes(name)) return;
    const names = known.length === 0 ? 'none are defined' : `known: ${listWords(known.map((n) => quote(n)))}`;
    ctx.report(
      POINTER,
      `notificationGroupId names group ${quote(name)}, which notificationGroups in wfsync.config.yaml does not ` +
        `define (${names}): use a defined name or add it to every target.`,
    );
  },
};

export const notificationGroupUnresolved: Rule = {
  code: 'notification-group-unresolved',
  defaultSeverity: 'warning',
  description:
    'a `group:NAME` notificationGroupId cannot be checked without notificationGroups in the config',
  check(ctx) {
    const name = groupName(ctx.workflow.notificationGroupId);
    if (name === undefined || ctx.options.notificationGroups !== undefined) return;
    ctx.report(
      POINTER,
      `notificationGroupId ${quote(`${PREFIX}${name}`)} cannot be resolved without a wfsync.config.yaml target ` +
        `that defines notificationGroups: add one that maps ${quote(name)} to the group's id.`,
    );
  },
};
