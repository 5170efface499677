import { describe, expect, it } from 'vitest';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

/** One sms step whose first filter has the given parts; part k starts on line 9 + k, its `on` at column 11. */
function withParts(...parts: string[]): string {
  return [
    'name: order shipped',
    'notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9',
    'steps:',
    '  - name: s',
    '    template: {type: sms, content: hi}',
    '    filters:',
    '      - value: AND',
    '        children:',
    ...parts.map((part) => `          - ${part}`),
    '',
  ].join('\n');
}

const run = (text: string) => check(text + TRIGGER, {}, 'filter-part-fields').map(brief);
const error = (line: number, column: number, message: string) => ({
  code: 'filter-part-fields',
  severity: 'error',
  line,
  column,
  message,
});

describe('filter-part-fields', () => {
  it('accepts parts with exactly the fields their `on` takes', () => {
    const text = withParts(
      '{on: subscriber, field: locale, value: en, operator: EQUAL}',
      '{on: payload, field: total, value: "100", operator: LARGER}',
      '{on: tenant, field: plan, value: pro, operator: EQUAL}',
      '{on: webhook, field: ok, value: "true", operator: EQUAL, webhookUrl: "https://example.com/hook"}',
      '{on: isOnline, value: false}',
      '{on: isOnlineInLast, timeOperator: hours, value: 2}',
      '{on: previousStep, step: a1b2, stepType: unseen}',
      '{on: payload, field: coupon, operator: IS_DEFINED}',
    );
    expect(run(text)).toEqual([]);
  });

  it('reports missing fields at the part', () => {
    expect(run(withParts('{on: payload, field: total}'))).toEqual([
      error(
        9,
        13,
        'steps[0].filters[0].children[0] needs `value` and `operator`: a filter on payload compares with them.',
      ),
    ]);
    expect(run(withParts('{on: webhook, field: ok, value: "1", operator: EQUAL}'))).toEqual([
      error(
        9,
        13,
        'steps[0].filters[0].children[0] needs `webhookUrl`: a filter on webhook compares with them.',
      ),
    ]);
  });

  it('reports each extra field at its key', () => {
    expect(run(withParts('{on: isOnline, value: true, field: x}'))).toEqual([
      error(9, 41, 'steps[0].filters[0].children[0].field does not fit a filter on isOnline: remove it.'),
    ]);
    expect(
      run(withParts('{on: subscriber, field: a, value: b, operator: EQUAL, webhookUrl: "https://x"}')),
    ).toEqual([
      error(
        9,
        67,
        'steps[0].filters[0].children[0].webhookUrl does not fit a filter on subscriber: remove it.',
      ),
    ]);
  });

  it('reports values of the wrong type', () => {
    expect(run(withParts('{on: payload, field: total, value: 100, operator: LARGER}'))).toEqual([
      error(
        9,
        48,
        'steps[0].filters[0].children[0].value is 100 but a filter on payload needs a string (quote it in YAML) there.',
      ),
    ]);
    expect(run(withParts('{on: isOnline, value: "yes"}'))).toEqual([
      error(
        9,
        35,
        'steps[0].filters[0].children[0].value is "yes" but a filter on isOnline needs true or false there.',
      ),
    ]);
    expect(run(withParts('{on: isOnlineInLast, timeOperator: hours, value: "2"}'))).toEqual([
      error(
        9,
        62,
        'steps[0].filters[0].children[0].value is "2" but a filter on isOnlineInLast needs a number there.',
      ),
    ]);
  });
});

describe('variant-filter-missing', () => {
  const variant = (filters: string) =>
    [
      'name: order shipped',
      'notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9',
      'steps:',
      '  - name: s',
      '    template: {type: sms, content: hi}',
      '    variants:',
      '      - template: {type: sms, content: hello}',
      ...(filters ? [`        filters: ${filters}`] : []),
      '',
    ].join('\n');
  const runVariant = (text: string) => check(text + TRIGGER, {}, 'variant-filter-missing').map(brief);
  const message =
    'steps[0].variants[0] needs at least one filter with children: a variant is sent instead of its step only ' +
    'when its filters match, so add the conditions to steps[0].variants[0].filters.';

  it('accepts a variant with a filter that has children', () => {
    expect(runVariant(variant('[{value: AND, children: [{on: isOnline, value: true}]}]'))).toEqual([]);
  });

  it('reports a variant without filters at the variant', () => {
    expect(runVariant(variant(''))).toEqual([
      { code: 'variant-filter-missing', severity: 'error', line: 7, column: 9, message },
    ]);
  });

  it('reports a variant whose filters have no children at `filters`', () => {
    expect(runVariant(variant('[{value: AND, children: []}]'))).toEqual([
      { code: 'variant-filter-missing', severity: 'error', line: 8, column: 9, message },
    ]);
    expect(runVariant(variant('[]'))).toHaveLength(1);
  });
});
