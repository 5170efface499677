import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { BUILT_IN_HELPERS, firstSegmentIs, SYSTEM_VARIABLE_PREFIXES } from '../../../src/derive/names.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';

/** `name:Type` for each use, in order. */
function uses(scan: ReturnType<typeof scanTemplate>): string[] {
  expect(scan.error).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}`);
}

// The service's helper list, spelled out: a helper missing from derive's list would put its name on the trigger.
// biome-ignore format: a table of names
const SERVICE_HELPERS = [
  'equals', 'titlecase', 'uppercase', 'lowercase', 'pluralize', 'dateFormat', 'unique', 'groupBy', 'sortBy',
  'numberFormat', 'i18n', 'gt', 'gte', 'lt', 'lte', 'eq', 'ne',
];

describe('the helper names', () => {
  it('are the service’s helpers plus Handlebars’ lookup and log', () => {
    expect([...BUILT_IN_HELPERS].sort()).toEqual([...SERVICE_HELPERS, 'lookup', 'log'].sort());
  });

  it.each([...SERVICE_HELPERS, 'lookup', 'log'])('{{%s}} alone calls the helper: no variable', (helper) => {
    expect(uses(scanTemplate(`{{${helper}}} {{${helper}x}}`))).toEqual([`${helper}x:String`]);
  });

  it.each(SERVICE_HELPERS.filter((h) => h !== 'i18n'))(
    'the service reads the first argument of {{%s a b}}',
    (helper) => {
      expect(uses(scanTemplateAsServer(`{{${helper} a b}}`))).toEqual(['a:String']);
    },
  );

  it.each(['lookup', 'log', 'custom'])(
    'the service reads nothing from {{%s a b}} (not its helper)',
    (helper) => {
      expect(uses(scanTemplateAsServer(`{{${helper} a b}}`))).toEqual([]);
    },
  );

  it.each(['lookup', 'log'])('the service takes {{%s}} alone for a variable', (helper) => {
    expect(uses(scanTemplateAsServer(`{{${helper}}}`))).toEqual([`${helper}:String`]);
  });
});

describe('the system variable prefixes', () => {
  it('are the service’s own, in its order', () => {
    expect(SYSTEM_VARIABLE_PREFIXES).toEqual([
      'subscriber',
      'step',
      'branding',
      'tenant',
      'preheader',
      'actor',
    ]);
  });
});

describe('firstSegmentIs', () => {
  it.each([
    ['tenant', 'tenant', true],
    ['tenant.name', 'tenant', true],
    ['tenant.', 'tenant', true],
    ['tenantx', 'tenant', false],
    ['tenan', 'tenant', false],
    ['xtenant', 'tenant', false],
    ['x.tenant', 'tenant', false],
    ['', 'tenant', false],
    ['tenant_x.y', 'tenant', false],
  ])('%j starts with the segment %j: %s', (name, segment, expected) => {
    expect(firstSegmentIs(name, segment)).toBe(expected);
  });
});
