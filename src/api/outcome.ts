/** The exit codes of plan and sync, as the API and the CLI read them (the rules live with the tables). */
export { syncExitCode } from '../apply/result.js';
export { planExitCode } from '../plan/verdict.js';
