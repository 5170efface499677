/**
 * variable-typo: an undeclared variable within a few edits of a declared one is an error with "did you mean", at the
 * use; everything else stays variable-undeclared's warning.
 */
import { describe, expect, it } from 'vitest';
import { suggestVariable } from '../../../../src/validate/rules/variable-typo.js';
import { check, yaml } from '../../../helpers/rules.js';

const CODES = ['variable-typo', 'variable-undeclared'];

/** A definition declaring `declared` on its trigger whose one sms step says `content`. */
function definition(declared: string[], content: string, stepVariables = ''): string {
  const names = declared.map((n) => `{name: ${JSON.stringify(n)}}`).join(', ');
  return yaml`
    name: w
    notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
    triggers: [{identifier: w, type: event, variables: [${names}]}]
    steps:
      - template: {type: sms, content: ${JSON.stringify(content)}${stepVariables}}
  `;
}

const where = (d: { code: string; severity: string; line: number; column: number; endColumn?: number }) =>
  `${d.code} ${d.severity} ${d.line}:${d.column}-${d.endColumn}`;

describe('variable-typo', () => {
  it('is an error at the misspelt use, with the declared name it meant', () => {
    const found = check(definition(['amount'], 'Paid {{ammount}} today'), {}, ...CODES);
    expect(found).toEqual([
      {
        code: 'variable-typo',
        severity: 'error',
        message:
          '`ammount` is used in steps[0].template.content but not declared (the message would show nothing for ' +
          'it): did you mean `amount`?',
        file: 'workflows/test.yaml',
        pointer: '/steps/0/template/content',
        line: 5,
        column: 44,
        endLine: 5,
        endColumn: 51,
      },
    ]);
  });

  it.each([
    ['payload.frist_name', ['payload.first_name'], 'payload.first_name'], // a transposition in the last segment
    ['order.totl', ['order.total'], 'order.total'], // one letter dropped
    ['firstName', ['first_name'], 'first_name'], // separators alone
    ['Amount', ['amount'], 'amount'], // case alone
    ['ID', ['id'], 'id'], // case alone counts even for the shortest names
    ['paymentReferance', ['paymentReference'], 'paymentReference'], // one edit in a long name
    ['paymnetRefrence', ['paymentReference'], 'paymentReference'], // two edits in a long name
    ['ordr.total', ['order.total'], 'order.total'], // a typo in the object's segment
    ['emial', ['email', 'emails'], 'email'], // the closest wins
    ['nmae', ['name', 'game'], 'name'], // a tie: the earlier declared name
  ])('`%s` with %j declared → `%s`', (used, declared, meant) => {
    expect(suggestVariable(used, declared)).toBe(meant);
    const found = check(definition(declared, `{{${used}}}`), {}, ...CODES);
    expect(found.map((d) => [d.code, d.severity, d.message.endsWith(`did you mean \`${meant}\`?`)])).toEqual([
      ['variable-typo', 'error', true],
    ]);
  });

  it.each([
    ['ip', ['id']], // three characters or fewer: case and separators only
    ['url', ['uri']],
    ['amnt', ['amount']], // an abbreviation is not a typo
    ['first', ['first_name']],
    ['amuont', ['count']],
    ['ammonut', ['amount']], // two edits in a name of six characters
    ['paymnetRefrenc', ['paymentReference']], // three edits in a long name
    ['subscriber.total', ['payload.total']], // another object (the service provides subscriber.*: never undeclared)
    ['cart.total', ['order.total']],
    ['a.total', ['b.total']], // a one-letter segment differs: no typo
    ['order.totl.x', ['order.total']], // another depth
    ['ordr.totl', ['order.total']], // two segments differ
  ])('`%s` with %j declared: no suggestion', (used, declared) => {
    expect(suggestVariable(used, declared)).toBeUndefined();
    const found = check(definition(declared, `{{${used}}}`), {}, ...CODES);
    const codes = found.map((d) => d.code);
    // subscriber.* is the service's own: not undeclared at all.
    expect(codes).toEqual(used.startsWith('subscriber.') ? [] : ['variable-undeclared']);
  });

  it('suggests a name the using step declares in its own template.variables', () => {
    const text = definition(['other'], '{{coupn}}', ', variables: [{name: coupon}]');
    const found = check(text, {}, ...CODES);
    expect(found.map((d) => d.code)).toEqual(['variable-typo']);
    expect(found[0]?.message).toMatch(/^`coupn` is used .*: did you mean `coupon`\?$/);
  });

  it('inside {{#each}}: the item path, compared with the declared item path', () => {
    const text = definition(['items', 'items.title'], '{{#each items}}{{titel}}{{/each}}');
    const found = check(text, {}, ...CODES);
    expect(found.map((d) => d.code)).toEqual(['variable-typo']);
    expect(found[0]?.message).toMatch(/^`items\.titel` is used .*: did you mean `items\.title`\?$/);
  });

  it('reports each misspelt name once; other undeclared names stay warnings', () => {
    const text = definition(['amount'], '{{ammount}} {{ammount}} {{region}}');
    expect(check(text, {}, ...CODES).map(where)).toEqual([
      'variable-typo error 5:39-46',
      'variable-undeclared warning 5:63-69',
    ]);
  });

  it('follows the config: another severity, or off (then variable-undeclared reports the name)', () => {
    const text = definition(['amount'], '{{ammount}}');
    expect(check(text, { severities: { 'variable-typo': 'warning' } }, ...CODES).map(where)).toEqual([
      'variable-typo warning 5:39-46',
    ]);
    expect(check(text, { severities: { 'variable-typo': 'off' } }, ...CODES).map(where)).toEqual([
      'variable-undeclared warning 5:39-46',
    ]);
    expect(
      check(text, { severities: { 'variable-typo': 'off', 'variable-undeclared': 'off' } }, ...CODES),
    ).toEqual([]);
  });

  it('is quiet when the trigger declares no variables list (as variable-undeclared is)', () => {
    const text = yaml`
      name: w
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers: [{identifier: w, type: event}]
      steps:
        - template: {type: sms, content: "{{ammount}}", variables: [{name: amount}]}
    `;
    expect(check(text, {}, ...CODES)).toEqual([]);
  });
});
