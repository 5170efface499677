/**
 * A faithful local copy of the service's two workflow operations (`wfsync emulate`, the `local` target and every
 * e2e test): same routes, auth messages, validation messages, server-filled fields, trigger identifiers, rate-limit
 * headers and idempotency, plus deterministic fault injection for the failure paths a real network has.
 */
export { startEmulator } from './server.js';
export type { EmulatorOptions, FaultOptions, RequestRecord, RunningEmulator } from './types.js';
