/**
 * A faithful local copy of the service's workflow API (`wfsync emulate`, the `local` target and every e2e test): the
 * two operations wfsync's spec names with the same routes, auth messages, validation messages, server-filled fields,
 * trigger identifiers, rate-limit headers and idempotency; the writing routes (update, status, delete, list) and
 * promotion to a Production environment through the changes API; plus deterministic fault injection for the failure
 * paths a real network has.
 */
export { startEmulator } from './server.js';
export type { EmulatorOptions, FaultOptions, RequestRecord, RunningEmulator } from './types.js';
