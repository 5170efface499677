/**
 * The version of wfsync's JSON contract: every `--format json` document (validate, plan, sync, pull, state show,
 * and the error document of a failed command) and `plan --out` carry it as their top-level `schemaVersion`. Fields
 * are only added within a version; renaming or removing one bumps it. Version 1 documents said `version: 1` instead
 * (and sync's summary had kebab-case keys); `sync --plan` still reads plans written then.
 */
export const SCHEMA_VERSION = 2;
