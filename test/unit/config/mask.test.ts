import { describe, expect, it } from 'vitest';
import { maskConfigSecrets } from '../../../src/config/mask.js';
import { readConfig } from '../../../src/config/read.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { ConfigError } from '../../../src/errors.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const tempProject = useTempProjects('wfsync-mask-');

function mask(text: string): string {
  const parsed = parseDefinition('wfsync.config.yaml', new TextEncoder().encode(text));
  return maskConfigSecrets(text, parsed.definition);
}

describe('maskConfigSecrets', () => {
  it('masks values under secret-named keys, apiKeyEnv holding a key and URLs with credentials, column for column', () => {
    const text = [
      'targets:',
      '  prod:',
      '    baseUrl: https://user:hunter2@api.example.com',
      '    apiKey: sk_live_abcdefghijklmnop',
      '    api_token: "quoted value"',
      '    apiKeyEnv: sk_live_QQQQ',
      '  staging:',
      '    baseUrl: https://api.example.com',
      '    apiKeyEnv: STAGING_KEY',
      '    password: |',
      '      line one',
      '      line two',
      '',
    ].join('\n');
    const masked = mask(text);
    expect(masked.split('\n')).toEqual([
      'targets:',
      '  prod:',
      `    baseUrl: ${'*'.repeat('https://user:hunter2@api.example.com'.length)}`,
      `    apiKey: ${'*'.repeat('sk_live_abcdefghijklmnop'.length)}`,
      `    api_token: ${'*'.repeat('"quoted value"'.length)}`,
      `    apiKeyEnv: ${'*'.repeat('sk_live_QQQQ'.length)}`,
      '  staging:',
      '    baseUrl: https://api.example.com',
      '    apiKeyEnv: STAGING_KEY',
      // A block scalar's span covers its indentation too.
      '    password: *',
      '*'.repeat(14),
      '*'.repeat(14),
      '',
    ]);
    expect(masked).toHaveLength(text.length);
  });

  it('masks secret-named keys line by line when the YAML does not parse', () => {
    expect(maskConfigSecrets('targets:\n  x:\n    token: abc123 [\n', undefined)).toBe(
      'targets:\n  x:\n    token: ********\n',
    );
  });

  it('leaves a config without secrets as it is', () => {
    const text = 'targets:\n  a:\n    baseUrl: https://a.example\n    apiKeyEnv: A_KEY\n';
    expect(mask(text)).toBe(text);
  });
});

describe('readConfig', () => {
  it('hands the code frames a masked text, never the key', () => {
    const dir = tempProject({
      'wfsync.config.yaml':
        'targets:\n  prod:\n    baseUrl: https://api.example.com\n    apiKey: sk_live_0123456789\n',
    });
    let error: unknown;
    try {
      readConfig('wfsync.config.yaml', dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const sources = (error as ConfigError).sources;
    expect([...sources.values()].join('')).not.toContain('sk_live');
    expect([...sources.values()][0]).toContain(`apiKey: ${'*'.repeat(18)}`);
  });
});
