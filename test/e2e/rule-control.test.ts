import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VALID } from '../fixtures/workflow-texts.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { makeProject, runCli } from './helpers.js';

/** VALID with its own identifier and one declared variable no template uses (variable-unused, a warning). */
const definition = (identifier: string, lines: string) =>
  `${VALID.replace('order-shipped', identifier).replace('name: order shipped', `name: ${identifier}`)}${lines}`;

const PROJECT = {
  'wfsync.config.yaml':
    'overrides:\n  - files: workflows/experiments/**\n    rules:\n      variable-unused: "off"\n',
  'workflows/a.yaml': definition(
    'a',
    '      # wfsync-disable-next-line variable-unused -- old app versions still send it\n' +
      '      - { name: legacy, type: String }\n' +
      '      - { name: stale, type: String }\n',
  ),
  'workflows/experiments/b.yaml': definition('b', '      - { name: trial, type: String }\n'),
  'workflows/c.yaml': definition(
    'c',
    '      # wfsync-disable variable-unused\n      - { name: forgot, type: String }\n',
  ),
};

/** A definition whose one comment silences nothing: the variable it was for is used now. */
const UNUSED_COMMENT = definition(
  'a',
  '      # wfsync-disable-next-line variable-unused -- no longer needed\n' +
    '      - { name: orderId2, type: String }\n',
).replace('Order {{orderId}} shipped', 'Order {{orderId}} {{orderId2}} shipped');

// Lines of the comments and findings, counted from VALID (whose last line is followed by the added ones).
const FIRST = VALID.split('\n').length;

describe('rule control: wfsync-disable comments and config overrides', () => {
  it('silences, overrides and reports reason-less comments; --verbose shows what was silenced', async () => {
    const cwd = makeProject(PROJECT);
    const plain = await runCli(['validate'], { cwd, env: { NO_COLOR: '1' } });
    expect(plain.status).toBe(3);
    const headers = plain.stdout.split('\n').filter((l) => /^workflows\/\S+:\d+:\d+ /.test(l));
    expect(headers.map((l) => l.replace(/ (error|warning) .* \[/, ' $1 ['))).toEqual([
      `workflows/a.yaml:${FIRST + 2}:17 warning [variable-unused]`,
      `workflows/c.yaml:${FIRST}:9 error [suppression-reason-missing]`,
      `workflows/c.yaml:${FIRST + 1}:17 warning [variable-unused]`,
    ]);
    expect(plain.stdout).not.toContain('Silenced');
    expect(plain.stdout).not.toContain('`legacy`');

    const verbose = await runCli(['validate', '--verbose'], { cwd, env: { NO_COLOR: '1' } });
    expect(verbose.status).toBe(3);
    expect(verbose.stdout).toContain(
      `Silenced by wfsync-disable comments:\n  workflows/a.yaml:${FIRST + 1}:17 suppressed warning triggers[0].variables[1] \`legacy\` is declared`,
    );
    expect(verbose.stdout).toContain(`[variable-unused] (line ${FIRST}: old app versions still send it)`);
    // The summary counts what was reported, not what was silenced.
    expect(verbose.stdout).toContain('3 problems (1 error, 2 warnings)');
  });

  it('every format shows the silenced findings with --verbose only', async () => {
    const cwd = makeProject(PROJECT);
    const json = await runCli(['validate', '--format', 'json'], { cwd });
    expect(parseJsonOutput('validate', json.stdout)).not.toHaveProperty('suppressed');
    const verboseJson = parseJsonOutput(
      'validate',
      (await runCli(['validate', '--format', 'json', '--verbose'], { cwd })).stdout,
    ) as { suppressed: Array<Record<string, unknown>> };
    expect(verboseJson.suppressed).toEqual([
      expect.objectContaining({
        file: 'workflows/a.yaml',
        line: FIRST + 1,
        code: 'variable-unused',
        suppressedBy: { line: FIRST, reason: 'old app versions still send it' },
      }),
    ]);
    const sarif = async (verbose: boolean) =>
      JSON.parse(
        (await runCli(['validate', '--format', 'sarif', ...(verbose ? ['--verbose'] : [])], { cwd })).stdout,
      ).runs[0].results as Array<{ ruleId: string; suppressions?: unknown }>;
    expect((await sarif(false)).filter((r) => r.suppressions)).toEqual([]);
    expect((await sarif(true)).filter((r) => r.suppressions)).toEqual([
      expect.objectContaining({
        ruleId: 'variable-unused',
        suppressions: [{ kind: 'inSource', justification: 'old app versions still send it' }],
      }),
    ]);
    for (const format of ['github', 'junit']) {
      const quiet = await runCli(['validate', '--format', format], { cwd });
      const loud = await runCli(['validate', '--format', format, '--verbose'], { cwd });
      expect(quiet.stdout, format).not.toContain('old app versions still send it');
      expect(loud.stdout, format).toContain(`workflows/a.yaml:${FIRST + 1}:17 suppressed warning`);
      expect(loud.stdout, format).toContain(`(line ${FIRST}: old app versions still send it)`);
    }
  });

  it('the three comment forms and overrides, a reason-less and an unused comment: the same in every validate format', async () => {
    const cwd = makeProject({
      'wfsync.config.yaml':
        'overrides:\n  - files: workflows/exp/**\n    rules: { variable-unused: "off" }\n',
      'workflows/a.yaml': definition(
        'a',
        '      # wfsync-disable-next-line variable-unused -- old apps send it\n' +
          '      - { name: legacy, type: String }\n' +
          '      # wfsync-disable variable-unused -- the v3 fields, used from the next release\n' +
          '      - { name: v3first, type: String }\n' +
          '      - { name: v3second, type: String }\n' +
          '      # wfsync-enable variable-unused\n' +
          '      - { name: stale, type: String }\n',
      ),
      'workflows/exp/b.yaml': definition('b', '      - { name: trial, type: String }\n'),
      'workflows/c.yaml': `${definition('c', '')}      # wfsync-disable-next-line template-syntax -- once needed\n`,
      'workflows/d.yaml': `${definition('d', '')}      # wfsync-disable-next-line template-syntax\n`,
    });
    const silenced = ['`legacy`', '`v3first`', '`v3second`'];
    for (const format of ['human', 'json', 'github', 'junit', 'sarif', 'codeclimate']) {
      const args = ['validate', '--format', format, '--report-unused-disable'];
      const run = await runCli(args, { cwd, env: { NO_COLOR: '1' } });
      expect(run.status, format).toBe(3);
      // Reported: the variable after the block, the comment without a reason, the comment that silences nothing.
      for (const shown of ['`stale`', 'suppression-reason-missing', 'suppression-unused'])
        expect(run.stdout, `${format}: ${shown}`).toContain(shown);
      // Not reported: what the comments silenced (without --verbose), what the override turned off.
      for (const hidden of [...silenced, '`trial`'])
        expect(run.stdout, `${format}: ${hidden}`).not.toContain(hidden);
      // --verbose: what the comments silenced, with their reasons (a Code Quality report keeps it on stderr).
      const verbose = await runCli([...args, '--verbose'], { cwd, env: { NO_COLOR: '1' } });
      const listed = format === 'codeclimate' ? verbose.stderr : verbose.stdout;
      for (const shown of [...silenced, 'old apps send it', 'used from the next release'])
        expect(listed, `${format} --verbose: ${shown}`).toContain(shown);
      expect(verbose.stdout, `${format} --verbose`).not.toContain('`trial`');
    }
  });

  it('a Code Quality report keeps open issues only; --verbose lists the silenced ones on stderr', async () => {
    const cwd = makeProject(PROJECT);
    const loud = await runCli(['validate', '--format', 'codeclimate', '--verbose'], { cwd });
    const quiet = await runCli(['validate', '--format', 'codeclimate'], { cwd });
    expect(loud.stdout).toBe(quiet.stdout);
    expect(parseJsonOutput('codeclimate', loud.stdout)).toHaveLength(3);
    expect(quiet.stderr).not.toContain('Silenced');
    expect(loud.stderr).toContain(
      `Silenced by wfsync-disable comments:\n  workflows/a.yaml:${FIRST + 1}:17 suppressed warning`,
    );
  });

  it('--report-unused-disable reports a comment that silences nothing', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': UNUSED_COMMENT });
    const without = await runCli(['validate'], { cwd, env: { NO_COLOR: '1' } });
    expect(without.status).toBe(0);
    const withFlag = await runCli(['validate', '--report-unused-disable'], { cwd, env: { NO_COLOR: '1' } });
    expect(withFlag.status).toBe(0);
    expect(withFlag.stdout).toContain(
      `workflows/a.yaml:${FIRST}:9 warning "wfsync-disable-next-line variable-unused" silences no finding; remove it [suppression-unused]`,
    );
    const strict = await runCli(['validate', '--report-unused-disable', '--max-warnings', '0'], { cwd });
    expect(strict.status).toBe(3);
  });

  it('plan and sync --report-unused-disable stop before any request at a comment that silences nothing, in every format', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': UNUSED_COMMENT });
    const finding = `"wfsync-disable-next-line variable-unused" silences no finding; remove it`;
    const message =
      '1 wfsync-disable comment that silences nothing; nothing was sent (run "wfsync validate --report-unused-disable" for the full report)';
    // Without the flag the comment is not looked at: the plan creates the workflow.
    expect((await runCli(['plan'], { cwd })).status).toBe(2);
    const human = await runCli(['plan', '--report-unused-disable'], { cwd, env: { NO_COLOR: '1' } });
    expect(human.status).toBe(3);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain(`wfsync: ${message}\n`);
    expect(human.stderr).toContain(`workflows/a.yaml:${FIRST}:9 warning ${finding} [suppression-unused]`);
    const unused = {
      file: 'workflows/a.yaml',
      line: FIRST,
      column: 9,
      severity: 'warning',
      code: 'suppression-unused',
      message: finding,
    };
    for (const command of ['plan', 'sync']) {
      const json = await runCli([command, '--report-unused-disable', '--format', 'json'], { cwd });
      expect(json.status, command).toBe(3);
      expect(parseJsonOutput('error', json.stdout)).toMatchObject({
        error: { code: 'invalid', message, exitCode: 3, diagnostics: [unused] },
      });
      const github = await runCli([command, '--report-unused-disable', '--format', 'github'], { cwd });
      expect(github.stdout, command).toContain(
        `::warning file=workflows/a.yaml,line=${FIRST},col=9,endLine=${FIRST},endColumn=69,title=wfsync (suppression-unused)::${finding}`,
      );
      const markdown = await runCli([command, '--report-unused-disable', '--format', 'markdown'], { cwd });
      expect(markdown.stdout, command).toContain(
        `- \`workflows/a.yaml:${FIRST}:9\` **warning** ${finding} (\`suppression-unused\`)`,
      );
    }
    const codeclimate = await runCli(['plan', '--report-unused-disable', '--format', 'codeclimate'], { cwd });
    expect(parseJsonOutput('codeclimate', codeclimate.stdout)).toContainEqual(
      expect.objectContaining({ check_name: 'suppression-unused', description: finding }),
    );
    // Nothing was sent: the workflow is still to create, and no state was written.
    expect(existsSync(join(cwd, '.wfsync/state/local.json'))).toBe(false);
    expect((await runCli(['sync'], { cwd })).status).toBe(0);
  });

  it('plan --report-unused-disable goes on when the config makes suppression-unused info, as validate --max-warnings 0 does', async () => {
    const cwd = makeProject({
      'wfsync.config.yaml': 'rules:\n  suppression-unused: info\n',
      'workflows/a.yaml': UNUSED_COMMENT,
    });
    expect(
      (await runCli(['validate', '--report-unused-disable', '--max-warnings', '0'], { cwd })).status,
    ).toBe(0);
    expect((await runCli(['plan', '--report-unused-disable'], { cwd })).status).toBe(2);
  });

  it('an included file has comments of its own', async () => {
    const cwd = makeProject({
      'workflows/a.yaml':
        'name: a\nsteps:\n  - name: in app\n    template:\n      type: in_app\n      content: { file: ./a.html }\n' +
        'triggers:\n  - type: event\n    identifier: a\n',
      'workflows/a.html':
        '{{!-- wfsync-disable-next-line template-syntax -- a help page shows the broken form --}}\n' +
        '<p>Hello {{name}</p>\n<!-- wfsync-disable-next-line template-syntax -- stale -->\n',
    });
    const result = await runCli(['validate', '--verbose', '--report-unused-disable'], {
      cwd,
      env: { NO_COLOR: '1' },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'workflows/a.html:3:6 warning "wfsync-disable-next-line template-syntax" silences no finding; remove it [suppression-unused]',
    );
    expect(result.stdout).toMatch(
      /\n {2}workflows\/a\.html:2:16 suppressed error .* \[template-syntax\] \(line 1: a help page shows the broken form\)\n/,
    );
    expect(result.stdout).toContain('1 problem (0 errors, 1 warning) in 1 of 1 file');
  });

  it('an unknown rule in overrides is a config error with its position', async () => {
    const cwd = makeProject({
      'wfsync.config.yaml': 'overrides:\n  - files: "**"\n    rules:\n      variable-unusd: "off"\n',
      'workflows/a.yaml': VALID,
    });
    const result = await runCli(['validate'], { cwd, env: { NO_COLOR: '1' } });
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(
      /wfsync\.config\.yaml:4:7 error unknown rule "variable-unusd" \(did you mean "variable-unused"\?\).*\[config-unknown-rule\]/,
    );
  });

  it('--cache answers byte for byte as a run without it, cold and warm, in every format', async () => {
    const cwd = makeProject({ ...PROJECT, 'workflows/d.yaml': UNUSED_COMMENT.replace(/\ba\b/g, 'd') });
    for (const format of ['human', 'json', 'github', 'junit', 'sarif', 'codeclimate']) {
      const args = ['validate', '--format', format, '--verbose', '--report-unused-disable'];
      const cached = [...args, '--cache', '--cache-location', `.cache/${format}.json`];
      const plain = await runCli(args, { cwd, env: { NO_COLOR: '1' } });
      expect(plain.stdout, format).toContain('suppression-unused');
      const cold = await runCli(cached, { cwd, env: { NO_COLOR: '1' } });
      const warm = await runCli(cached, { cwd, env: { NO_COLOR: '1' } });
      expect([cold.status, cold.stdout], `${format} cold`).toEqual([plain.status, plain.stdout]);
      expect([warm.status, warm.stdout], `${format} warm`).toEqual([plain.status, plain.stdout]);
      expect(cold.stderr, format).toContain('wfsync: cache: 0 of 4 files unchanged');
      expect(warm.stderr, format).toContain('wfsync: cache: 4 of 4 files unchanged');
    }
  });

  it('--cache answers as a run without it, and an edit to the overrides is seen at once', async () => {
    const cwd = makeProject(PROJECT);
    const args = ['validate', '--format', 'json', '--verbose'];
    const uncached = (await runCli(args, { cwd })).stdout;
    expect((await runCli([...args, '--cache'], { cwd })).stdout).toBe(uncached);
    expect((await runCli([...args, '--cache'], { cwd })).stdout).toBe(uncached);
    writeFileSync(
      join(cwd, 'wfsync.config.yaml'),
      'overrides:\n  - files: workflows/experiments/**\n    rules:\n      variable-unused: error\n',
    );
    const edited = (await runCli(args, { cwd })).stdout;
    expect(edited).not.toBe(uncached);
    expect(edited).toContain('"file": "workflows/experiments/b.yaml"');
    expect((await runCli([...args, '--cache'], { cwd })).stdout).toBe(edited);
  });
});
