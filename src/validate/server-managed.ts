/**
 * Fields the service sets itself. They appear in its responses but never in a definition: the schema rejects them
 * (with a specific message from schema.ts) and the planner ignores them when comparing desired with actual.
 */
export const SERVER_MANAGED_FIELDS = [
  '_id',
  'id',
  '_environmentId',
  '_organizationId',
  '_creatorId',
  '_notificationGroupId',
  '_templateId',
  '_parentId',
  '_feedId',
  '_layoutId',
  'createdAt',
  'updatedAt',
  '__v',
  'deleted',
  'deletedAt',
  'deletedBy',
  'isBlueprint',
  'draft',
  'type',
  'origin',
  'reservedVariables',
  'workflowIntegrationStatus',
  'notificationGroup',
] as const;

export type ServerManagedField = (typeof SERVER_MANAGED_FIELDS)[number];

const SERVER_MANAGED = new Set<string>(SERVER_MANAGED_FIELDS);

/** What to do instead, for the fields users are most likely to copy from a response on purpose. */
const HINTS: Partial<Record<ServerManagedField, string>> = {
  draft: 'the server sets it to the opposite of `active`; set `active` instead',
  type: 'the server sets it to "REGULAR"; a step\'s type goes in `steps[].template.type`',
  _notificationGroupId: 'name the group with `notificationGroupId` instead',
  notificationGroup: 'name the group with `notificationGroupId` instead',
  _feedId: 'use `template.feedId` instead',
  _layoutId: 'use `template.layoutId` instead',
  reservedVariables: 'the server derives it from the `tenant.` and `actor.` variables the templates use',
};

/**
 * Whether a property is one the server sets. `type` is server-managed only on the workflow itself (pointer ""):
 * elsewhere it is a user field (template, filter, trigger) or a misplaced one, which deserves a did-you-mean instead.
 */
export function isServerManagedField(name: string, parentPointer: string): boolean {
  if (!SERVER_MANAGED.has(name)) return false;
  return name !== 'type' || parentPointer === '';
}

/** Extra advice for a server-managed field, if there is any beyond "remove it". */
export function serverManagedHint(name: string): string | undefined {
  return HINTS[name as ServerManagedField];
}
