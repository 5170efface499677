/**
 * The documents the API returns: the very objects `wfsync … --format json` prints (one builder each, in report/),
 * typed from their JSON Schemas (schemas/*-output.schema.json, through `npm run gen`).
 */
import type { PlanOutput } from '../generated/plan-output.js';
import type { SyncOutput } from '../generated/sync-output.js';
import type { ErrorOutput, ValidateOutput } from '../generated/validate-output.js';

/** `wfsync validate --format json`. */
export type ValidateDocument = Exclude<ValidateOutput, ErrorOutput>;
/** `wfsync plan --format json` (and `plan --out`, and `sync --dry-run --format json`). */
export type PlanDocument = Exclude<PlanOutput, ErrorOutput>;
/** `wfsync sync --format json`. */
export type SyncDocument = Exclude<SyncOutput, ErrorOutput>;
/** One workflow of a plan. */
export type PlanItemDocument = PlanDocument['items'][number];
/** One workflow of a sync. */
export type SyncOutcomeDocument = SyncDocument['outcomes'][number];
/** A finding, positioned in a definition. */
export type DiagnosticDocument = ValidateDocument['diagnostics'][number];
