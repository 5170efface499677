/**
 * The service's naming rules for template variables: its own (system) variables. Its helpers, whose names are not
 * variables either, are in service-helpers.ts.
 */

/** First path segments the service provides itself and never puts on the trigger. */
export const SYSTEM_VARIABLE_PREFIXES = [
  'subscriber',
  'step',
  'branding',
  'tenant',
  'preheader',
  'actor',
] as const;

/**
 * Whether the service treats `name` as its own: its first dotted segment is a system prefix (`subscriber.firstName`,
 * `step.events`, `preheader`). Like the service, `subscriberName` is not one: only the whole first segment counts.
 */
export function isSystemVariable(name: string): boolean {
  for (const prefix of SYSTEM_VARIABLE_PREFIXES) if (firstSegmentIs(name, prefix)) return true;
  return false;
}

/** Whether `name`'s first dotted segment is `segment` (a name without dots): `tenant.name`, `tenant` → true. */
export function firstSegmentIs(name: string, segment: string): boolean {
  // Compared in place: this runs for every variable use, and slicing would allocate a string each time.
  return name.startsWith(segment) && (name.length === segment.length || name[segment.length] === '.');
}
