import { SERVER_MANAGED_FIELDS } from '../validate/server-managed.js';

/**
 * Fields the service sets that are never compared (shown with `--show-ignored`): the server-managed fields, except
 * the three stored names of declarable fields, which are compared under their definition names when declared
 * (`_notificationGroupId` as `notificationGroupId`, `_feedId`/`_layoutId` as `template.feedId`/`template.layoutId`).
 * Comparing reads only declared fields, so these and any field a newer server adds never count as drift.
 */
const COMPARED_UNDER_ANOTHER_NAME = new Set<string>(['_notificationGroupId', '_feedId', '_layoutId']);

export const IGNORED_FIELDS: readonly string[] = Object.freeze(
  SERVER_MANAGED_FIELDS.filter((field) => !COMPARED_UNDER_ANOTHER_NAME.has(field)),
);
