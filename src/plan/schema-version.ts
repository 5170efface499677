/**
 * The version of wfsync's JSON contract: every `--format json` document (validate, plan, sync, pull, state show,
 * and the error document of a failed command) and `plan --out` carry it as their top-level `schemaVersion`. Fields
 * are only added within a version; renaming, removing or requiring one bumps it. Version 4 added the actions and
 * outcomes that write (`update`/`updated`, `delete`/`deleted` and `promote`/`promoted`, required in the summaries)
 * and reads plans of 3. Version 3 made the plan and sync
 * documents carry their verdict (`exitCode`, `needsPerson`, `meaning`); version 2 documents lack it. Version 1
 * documents said `version: 1` instead (and sync's summary had kebab-case keys). `sync --plan` reads plans of every
 * version.
 */
export const SCHEMA_VERSION = 4;

/** The versions of a saved plan `sync --plan` still reads: their plan fields are this version's. */
export const READABLE_PLAN_VERSIONS: readonly number[] = [2, 3, SCHEMA_VERSION];
