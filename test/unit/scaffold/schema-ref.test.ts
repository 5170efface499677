import { describe, expect, it } from 'vitest';
import {
  configSchemaOf,
  modeline,
  normalizeSchemaPath,
  PACKAGE_SCHEMA_PATH,
  REPO_SCHEMA_PATH,
  schemaRefFrom,
} from '../../../src/scaffold/schema-ref.js';

describe('schema references', () => {
  it('from a file, relative to its directory', () => {
    expect(schemaRefFrom('workflows', REPO_SCHEMA_PATH)).toBe('../schemas/workflow.schema.json');
    expect(schemaRefFrom('workflows/billing', PACKAGE_SCHEMA_PATH)).toBe(
      '../../node_modules/wfsync/schemas/workflow.schema.json',
    );
    expect(schemaRefFrom('.', configSchemaOf(PACKAGE_SCHEMA_PATH))).toBe(
      './node_modules/wfsync/schemas/config.schema.json',
    );
    expect(schemaRefFrom('.', configSchemaOf(REPO_SCHEMA_PATH))).toBe('./schemas/config.schema.json');
    expect(schemaRefFrom('a', '../../node_modules/wfsync/schemas/workflow.schema.json')).toBe(
      '../../../node_modules/wfsync/schemas/workflow.schema.json',
    );
  });

  it('a URL is used as is; its config schema sits beside it', () => {
    const url = 'https://example.com/wfsync/1.0/workflow.schema.json';
    expect(schemaRefFrom('workflows', url)).toBe(url);
    expect(configSchemaOf(url)).toBe('https://example.com/wfsync/1.0/config.schema.json');
  });

  it('--schema-path as typed: separators and dots normalised, a leading ./ kept', () => {
    expect(normalizeSchemaPath('vendor\\wfsync\\workflow.schema.json')).toBe(
      'vendor/wfsync/workflow.schema.json',
    );
    expect(normalizeSchemaPath('./schemas//workflow.schema.json')).toBe('./schemas/workflow.schema.json');
    expect(normalizeSchemaPath('a/../schemas/workflow.schema.json')).toBe('schemas/workflow.schema.json');
    expect(configSchemaOf('workflow.schema.json')).toBe('./config.schema.json');
  });

  it('the modeline YAML editors read', () => {
    expect(modeline('../schemas/workflow.schema.json')).toBe(
      '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    );
  });
});
