import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractFake } from '../helpers/contract-fake/index.js';
import type { ProjectFiles } from '../helpers/temp-project.js';
import { ROOT } from './helpers.js';

/**
 * The files of a project whose target `fake` is the contract fake (its key in FAKE_KEY, its group the default and
 * `transactional`, `allow` the actions the target permits when given), holding copies of the repository's example
 * workflows named in `examples`.
 */
export function contractFakeProject(
  fake: ContractFake,
  examples: readonly string[],
  allow?: readonly string[],
): ProjectFiles {
  const config = [
    'workflowsDir: workflows',
    'targets:',
    '  fake:',
    `    baseUrl: ${fake.url}`,
    '    apiKeyEnv: FAKE_KEY',
    `    notificationGroupId: ${fake.groupId}`,
    `    notificationGroups: { transactional: ${fake.groupId} }`,
    ...(allow ? [`    allow: [${allow.join(', ')}]`] : []),
    '',
  ];
  const workflows = examples.map((name) => [
    `workflows/${name}.yaml`,
    readFileSync(join(ROOT, 'workflows', `${name}.yaml`)),
  ]);
  return { 'wfsync.config.yaml': config.join('\n'), ...Object.fromEntries(workflows) };
}
