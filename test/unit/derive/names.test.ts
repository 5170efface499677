import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { firstSegmentIs, SYSTEM_VARIABLE_PREFIXES } from '../../../src/derive/names.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';
import { BUILT_IN_HELPERS, EXTRACTOR_HELPERS, SERVICE_HELPERS } from '../../../src/derive/service-helpers.js';
import { registerServiceHelpers } from '../../../src/render/helpers.js';

/** `name:Type` for each use, in order. */
function uses(scan: ReturnType<typeof scanTemplate>): string[] {
  expect(scan.error).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}`);
}

// The helpers the service's variable extractor knows (service contract, "variables"), spelled out: a helper missing
// from derive's list would put its name on the trigger.
// biome-ignore format: a table of names
const EXTRACTOR = [
  'equals', 'titlecase', 'uppercase', 'lowercase', 'pluralize', 'dateFormat', 'unique', 'groupBy', 'sortBy',
  'numberFormat', 'i18n', 'gt', 'gte', 'lt', 'lte', 'eq', 'ne',
];
/** And those the service registers where it renders (docs/rendering.md): the extractor's, and `json`. */
const RENDERED = [...EXTRACTOR, 'json'];

describe('the helper names', () => {
  it('one table: the helpers render registers are exactly those derive knows', () => {
    const registered: string[] = [];
    registerServiceHelpers({ registerHelper: (name) => registered.push(name) });
    expect(registered.sort()).toEqual([...SERVICE_HELPERS.keys()].sort());
    expect([...SERVICE_HELPERS.keys()].sort()).toEqual([...RENDERED].sort());
  });

  it('are the service’s helpers plus Handlebars’ lookup and log; its extractor knows all but json', () => {
    expect([...BUILT_IN_HELPERS].sort()).toEqual([...RENDERED, 'lookup', 'log'].sort());
    expect([...EXTRACTOR_HELPERS].sort()).toEqual([...EXTRACTOR].sort());
  });

  it.each([...RENDERED, 'lookup', 'log'])('{{%s}} alone calls the helper: no variable', (helper) => {
    expect(uses(scanTemplate(`{{${helper}}} {{${helper}x}}`))).toEqual([`${helper}x:String`]);
  });

  it('{{json x}} reads x; {{json}} alone reads nothing', () => {
    expect(uses(scanTemplate('{{json order}} {{json}}'))).toEqual(['order:String']);
  });

  it.each(EXTRACTOR.filter((h) => h !== 'i18n'))(
    'the service reads the first argument of {{%s a b}}',
    (helper) => {
      expect(uses(scanTemplateAsServer(`{{${helper} a b}}`))).toEqual(['a:String']);
    },
  );

  it.each(['lookup', 'log', 'json', 'custom'])(
    'the service reads nothing from {{%s a b}} (not its extractor’s helper)',
    (helper) => {
      expect(uses(scanTemplateAsServer(`{{${helper} a b}}`))).toEqual([]);
    },
  );

  it.each(['lookup', 'log', 'json'])('the service takes {{%s}} alone for a variable', (helper) => {
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
