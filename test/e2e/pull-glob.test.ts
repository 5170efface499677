import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_IDENTIFIERS, startTarget } from './plan-sync-target.js';

/**
 * `pull` of a workflow with no file yet, in a project whose `workflowsDir` is a glob: the glob's fixed part
 * (`services` of a `services/<name>/workflows` pattern) is no folder of the project's, so pull writes nothing there
 * and names the folders to choose from; with --dir, the file lands where the project reads it.
 */
describe('pull into a workflowsDir glob', () => {
  it('refuses to write to the fixed part, names the folders; --dir writes where the glob matches', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    const config = join(target.cwd, 'wfsync.config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace('workflowsDir: workflows', 'workflowsDir: "services/*/workflows"'),
    );
    mkdirSync(join(target.cwd, 'services/orders'), { recursive: true });
    renameSync(join(target.cwd, 'workflows'), join(target.cwd, 'services/orders/workflows'));
    rmSync(join(target.cwd, 'services/orders/workflows/order-shipped.yaml'));

    const refused = await target.run(['pull', 'order-shipped']);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'wfsync: pull would write a new file to services/order-shipped.yaml, which workflowsDir ' +
        '(services/*/workflows) in wfsync.config.yaml does not list, so no command would read it again; ' +
        'choose a folder with --dir: services/orders/workflows\n',
    );
    expect(refused.status).toBe(64);
    expect(existsSync(join(target.cwd, 'services/order-shipped.yaml'))).toBe(false);

    const pulled = await target.run(['pull', 'order-shipped', '--dir', 'services/orders/workflows']);
    expect(pulled.stderr).toBe('');
    expect(pulled.stdout).toContain('→ services/orders/workflows/order-shipped.yaml');
    expect(pulled.status).toBe(0);
    const plan = await target.run(['plan']);
    expect(plan.stdout).toContain(`No changes. ${EXAMPLE_IDENTIFIERS.length} workflows in sync.`);
  });
});
