// Frozen copy of isSystemVariable from src/derive/names.ts before the allocation work (commit 8e3e79f): part of the
// oracle for the differential tests. Change it only along with a deliberate change of behaviour in src.
import { SYSTEM_VARIABLE_PREFIXES } from '../../../../src/derive/names.js';

/**
 * Whether the service treats `name` as its own: its first dotted segment is a system prefix (`subscriber.firstName`,
 * `step.events`, `preheader`). Like the service, `subscriberName` is not one: only the whole first segment counts.
 */
export function isSystemVariable(name: string): boolean {
  return (SYSTEM_VARIABLE_PREFIXES as readonly string[]).includes(firstSegment(name));
}

/** `tenant.name` → `tenant`; `preheader` → `preheader`. */
export function firstSegment(name: string): string {
  const dot = name.indexOf('.');
  return dot === -1 ? name : name.slice(0, dot);
}
