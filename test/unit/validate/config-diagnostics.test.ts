import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { validateConfigSchema } from '../../../src/validate/schema.js';
import { loadYaml, yaml } from '../../helpers/load-yaml.js';

const FILE = 'wfsync.config.yaml';

function check(text: string): Diagnostic[] {
  return validateConfigSchema(loadYaml(text, FILE));
}

function brief(d: Diagnostic) {
  return { code: d.code, line: d.line, column: d.column, pointer: d.pointer, message: d.message };
}

describe('a valid config', () => {
  test('the documented example has no diagnostics', () => {
    const text = yaml`
      # yaml-language-server: $schema=./schemas/config.schema.json
      workflowsDir: workflows
      defaultTarget: local
      rules:
        identifier-name-mismatch: error
        variable-unused: off
      targets:
        local: {}
        production:
          baseUrl: https://api.example.com
          apiKeyEnv: WFSYNC_PRODUCTION_API_KEY
          notificationGroupId: 64f0c0ffee0000000000abcd
          notificationGroups: { transactional: 64f0c0ffee0000000000abcd, marketing: 64f1c0ffee0000000000abcd }
          state: .wfsync/state/production.json
          concurrency: 4
          rateLimit: 25
          timeouts: { connectMs: 10000, headersMs: 30000, bodyMs: 30000, commandMs: 600000 }
          retries: { maxAttempts: 5, budget: 50 }
          allowInsecureHttp: false
    `;
    expect(check(text)).toEqual([]);
  });

  test('an empty config is valid (every field has a default)', () => {
    expect(validateConfigSchema(loadYaml('{}\n', FILE))).toEqual([]);
  });
});

describe('targets', () => {
  test('every target but local needs a baseUrl; the diagnostic points at the target name', () => {
    const text = yaml`
      targets:
        local:
          concurrency: 2
        staging:
          apiKeyEnv: WFSYNC_STAGING_API_KEY
    `;
    expect(check(text)).toEqual([
      {
        code: 'schema-required',
        severity: 'error',
        file: FILE,
        pointer: '/targets/staging/baseUrl',
        line: 4,
        column: 3,
        endLine: 4,
        endColumn: 10,
        message:
          '`targets.staging` is missing required property `baseUrl` (every target except `local` needs one)',
      },
    ]);
  });

  test('a target name outside [a-z0-9][a-z0-9_-]* is reported on the name', () => {
    const text = yaml`
      targets:
        Prod:
          baseUrl: https://api.example.com
    `;
    expect(check(text).map(brief)).toEqual([
      {
        code: 'schema-pattern',
        line: 2,
        column: 3,
        pointer: '/targets/Prod',
        message:
          '`Prod` is not a valid name in `targets`: it must be a target name: lower-case letters, digits, `_` and `-`, starting with a letter or digit',
      },
    ]);
  });

  test('numeric limits and integer fields', () => {
    const text = yaml`
      targets:
        production:
          baseUrl: https://api.example.com
          concurrency: 65
          rateLimit: 0
          timeouts: { connectMs: 1.5 }
          retries: { maxAttempts: 0 }
    `;
    expect(check(text).map((d) => [d.line, d.column, d.code, d.message])).toEqual([
      [4, 18, 'schema-bounds', '`targets.production.concurrency` must be at most 64 (got 65)'],
      [5, 16, 'schema-bounds', '`targets.production.rateLimit` must be greater than 0 (got 0)'],
      [6, 28, 'schema-type', '`targets.production.timeouts.connectMs` must be an integer (got number 1.5)'],
      [7, 29, 'schema-bounds', '`targets.production.retries.maxAttempts` must be at least 1 (got 0)'],
    ]);
  });

  test('notification group ids must be 24-hex strings', () => {
    const text = yaml`
      targets:
        local:
          notificationGroupId: 64F0C0FFEE0000000000ABCD
          notificationGroups: { transactional: 123 }
    `;
    expect(check(text).map((d) => [d.line, d.column, d.code, d.message])).toEqual([
      [
        3,
        26,
        'schema-pattern',
        '`targets.local.notificationGroupId` must be a 24-character lower-case hex id (got string "64F0C0FFEE0000000000ABCD")',
      ],
      [
        4,
        42,
        'schema-type',
        '`targets.local.notificationGroups.transactional` must be a string (got number 123; quote it to make it a string)',
      ],
    ]);
  });
});

describe('secrets', () => {
  test('an API key in the file is refused with advice, wherever it is and however it is spelled', () => {
    const text = yaml`
      token: abc
      targets:
        production:
          baseUrl: https://api.example.com
          apiKey: sk_live_0123456789
          API_KEY: sk_live_0123456789
    `;
    const diagnostics = check(text);
    expect(diagnostics.map(brief)).toEqual([
      {
        code: 'schema-secret-in-file',
        line: 1,
        column: 1,
        pointer: '/token',
        message:
          "`token` is not allowed: API keys are never read from files; put the variable's name in apiKeyEnv",
      },
      {
        code: 'schema-secret-in-file',
        line: 5,
        column: 5,
        pointer: '/targets/production/apiKey',
        message:
          "`targets.production.apiKey` is not allowed: API keys are never read from files; put the variable's name in apiKeyEnv",
      },
      {
        code: 'schema-secret-in-file',
        line: 6,
        column: 5,
        pointer: '/targets/production/API_KEY',
        message:
          "`targets.production.API_KEY` is not allowed: API keys are never read from files; put the variable's name in apiKeyEnv",
      },
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain('sk_live');
  });

  test('a key pasted into apiKeyEnv is rejected without echoing it', () => {
    const text = yaml`
      targets:
        production:
          baseUrl: https://api.example.com
          apiKeyEnv: sk_live_0123456789
    `;
    const diagnostics = check(text);
    expect(diagnostics.map(brief)).toEqual([
      {
        code: 'schema-pattern',
        line: 4,
        column: 16,
        pointer: '/targets/production/apiKeyEnv',
        message:
          '`targets.production.apiKeyEnv` must be an environment variable name: upper-case letters, digits and `_`, not starting with a digit (the value is not shown in case it holds a credential)',
      },
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain('sk_live');
  });

  test('a baseUrl is checked as a URL without echoing it (it may carry user:password)', () => {
    const text = yaml`
      targets:
        production:
          baseUrl: https://user:hunter2@api example.com
        staging:
          baseUrl: ftp://files.example.com
    `;
    const diagnostics = check(text);
    expect(diagnostics.map((d) => [d.line, d.code, d.message])).toEqual([
      [
        3,
        'schema-format',
        '`targets.production.baseUrl` must be a valid absolute URI (the value is not shown in case it holds a credential)',
      ],
      [
        5,
        'schema-pattern',
        '`targets.staging.baseUrl` must be an http:// or https:// URL (the value is not shown in case it holds a credential)',
      ],
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain('hunter2');
  });
});

describe('rules and top-level fields', () => {
  test('severity typos get a suggestion; rule codes must look like codes', () => {
    const text = yaml`
      rules:
        variable-unused: warn
        Variable_Unused: off
    `;
    expect(check(text).map(brief)).toEqual([
      {
        code: 'schema-enum',
        line: 2,
        column: 20,
        pointer: '/rules/variable-unused',
        message:
          '`rules.variable-unused` must be one of: error, warning, info, off (got "warn"; did you mean "warning"?)',
      },
      {
        code: 'schema-pattern',
        line: 3,
        column: 3,
        pointer: '/rules/Variable_Unused',
        message:
          '`Variable_Unused` is not a valid name in `rules`: it must be a rule code: lower-case words joined by `-`',
      },
    ]);
  });

  test('unknown top-level keys are named with the config as subject', () => {
    const text = yaml`
      workflowDir: flows
      defaultTarget: ""
    `;
    expect(check(text).map(brief)).toEqual([
      {
        code: 'schema-additional-property',
        line: 1,
        column: 1,
        pointer: '/workflowDir',
        message: 'the config file has an unknown property `workflowDir`; did you mean `workflowsDir`?',
      },
      {
        code: 'schema-pattern',
        line: 2,
        column: 16,
        pointer: '/defaultTarget',
        message:
          '`defaultTarget` must be a target name: lower-case letters, digits, `_` and `-`, starting with a letter or digit (got an empty string)',
      },
    ]);
  });
});
