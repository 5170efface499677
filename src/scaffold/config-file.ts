/**
 * The `wfsync.config.yaml` that `wfsync init` writes: the workflows directory, the built-in `local` target as the
 * default, and a commented example of a real target (the one the CI jobs init writes use, named for the provider).
 * Pure.
 */
import { stringify } from 'yaml';
import { modeline } from './schema-ref.js';

/**
 * The target the CI recipes plan and sync against, and the variable its key is read from: the service's Development
 * environment, the only one whose key may create workflows (Production takes them through the dashboard's
 * promotion step).
 */
export const CI_TARGET = 'development';
export const CI_API_KEY_ENV = 'WFSYNC_DEVELOPMENT_API_KEY';
/** The promoted target the main-branch recipes promote to (PROMOTING_GUIDE), and its key's variable. */
export const CI_PROMOTED_TARGET = 'production';
export const CI_PROMOTED_KEY_ENV = 'WFSYNC_PRODUCTION_API_KEY';
/** The page on promotion the CI files `init` writes point at, by URL as the README's links do (users have no docs/). */
export const PROMOTING_GUIDE = 'https://github.com/wfsync/wfsync/blob/main/docs/guides/promoting.md';

export interface ConfigFileInput {
  /** Relative to the config file, `/` separators. */
  workflowsDir: string;
  /** The config schema as the config file's modeline names it; undefined: no modeline (it would not resolve). */
  configSchemaRef: string | undefined;
  /** The CI provider whose jobs init writes: what the commented target's note says uses it. */
  ci: 'github' | 'gitlab' | 'none';
}

/** Who uses the commented target, and where its key is kept, for each provider (two comment lines). */
const CI_USES: Record<ConfigFileInput['ci'], readonly [string, string]> = {
  github: [
    '# The CI recipes in .github/workflows use this target, with the key in the repository secret',
    `# ${CI_API_KEY_ENV}.`,
  ],
  gitlab: [
    '# The GitLab jobs in .gitlab/wfsync.gitlab-ci.yml use this target, with the key in the masked CI/CD',
    `# variable ${CI_API_KEY_ENV}.`,
  ],
  none: [
    '# The CI jobs `wfsync init --ci github` (or `--ci gitlab`) writes use this target, with the key in the',
    `# repository secret (or masked CI/CD variable) ${CI_API_KEY_ENV}.`,
  ],
};

export function buildConfigFile({ workflowsDir, configSchemaRef, ci }: ConfigFileInput): string {
  return `${[
    ...(configSchemaRef === undefined ? [] : [modeline(configSchemaRef)]),
    '# wfsync: workflow definitions kept as code. `wfsync help` lists the commands.',
    `workflowsDir: ${scalar(workflowsDir)}`,
    '# Without --target, commands use the built-in `local` target: an embedded copy of the service, kept in',
    '# .wfsync/local-service.json. No account or API key needed: `wfsync sync` shows what a real sync would create.',
    'defaultTarget: local',
    '# Severity per rule (`wfsync validate --list-rules`): error | warning | info | off.',
    '# rules:',
    '#   identifier-name-mismatch: error',
    '#',
    `# A real service environment. Uncomment and fill in, then \`wfsync plan --target ${CI_TARGET}\`.`,
    "# Its key must be the Development environment's: only a Development key may create workflows. Production",
    `# takes them from Development when their changes are promoted: the ${CI_PROMOTED_TARGET} target below.`,
    ...CI_USES[ci],
    '# targets:',
    `#   ${CI_TARGET}:`,
    '#     baseUrl: https://api.example.com',
    '#     # The NAME of the environment variable holding the API key; keys are never read from files.',
    `#     apiKeyEnv: ${CI_API_KEY_ENV}`,
    '#     # The notification group of definitions that name none: a 24-hex id from the dashboard.',
    '#     notificationGroupId: 64f0c0ffee0000000000abcd',
    '#     # What `notificationGroupId: group:<name>` in a definition resolves to.',
    '#     notificationGroups:',
    '#       transactional: 64f1c0ffee0000000000abcd',
    '#     # What sync may write here (default [create]): update applies edited files; add delete to remove workflows.',
    '#     allow: [create, update]',
    `#     # Default .wfsync/state/${CI_TARGET}.json: commit it to keep workflow ids between CI runs, or let CI`,
    '#     # rebuild it each run (wfsync looks workflows up by identifier when state has no entry).',
    `#     # state: .wfsync/state/${CI_TARGET}.json`,
    `#   # Production, promoted from ${CI_TARGET} (its pending changes applied, never another workflow's): its key`,
    `#   # (${CI_PROMOTED_KEY_ENV}) only reads. The main-branch CI promotes once a reviewer approves.`,
    `#   ${CI_PROMOTED_TARGET}:`,
    '#     baseUrl: https://api.example.com',
    `#     apiKeyEnv: ${CI_PROMOTED_KEY_ENV}`,
    `#     promoteFrom: ${CI_TARGET}`,
  ].join('\n')}\n`;
}

/** A YAML scalar: plain when that reads back as the same string, quoted otherwise. */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}
