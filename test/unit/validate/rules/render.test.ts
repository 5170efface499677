import { describe, expect, it } from 'vitest';
import { renderFindingsToDiagnostics } from '../../../../src/validate/rules/index.js';
import { loadYaml } from '../../../helpers/load-yaml.js';
import { check, TRIGGER } from '../../../helpers/rules.js';

const HEAD =
  'name: order shipped\nnotificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9\nsteps:\n  - name: s\n    template:\n';
const CODES = [
  'render-helper-unknown',
  'render-helper-arity',
  'render-date-format',
  'render-empty',
  'render-surprise',
];
const run = (body: string, severities = {}) =>
  check(HEAD + body + TRIGGER, { severities }, ...CODES).map((d) => [
    d.code,
    d.severity,
    d.line,
    d.column,
    d.endColumn,
  ]);

describe('render rules', () => {
  it('report nothing for templates the service renders as they read', () => {
    expect(
      run(
        '      type: sms\n      content: "Hi {{subscriber.firstName}}, {{uppercase orderId}} {{dateFormat at \'yyyy\'}}"\n',
      ),
    ).toEqual([]);
  });

  it('report an unknown helper as an error at file:line:col of its name', () => {
    expect(run('      type: sms\n      content: Hi {{shout name}}\n')).toEqual([
      ['render-helper-unknown', 'error', 7, 21, 26],
    ]);
  });

  it('report wrong arity and an inline block helper as errors', () => {
    expect(run('      type: chat\n      content: "{{pluralize n \'item\'}} {{equals a b}}"\n')).toEqual([
      ['render-helper-arity', 'error', 7, 19, 28],
      ['render-helper-arity', 'error', 7, 42, 48],
    ]);
  });

  it('report a date pattern date-fns refuses at the pattern', () => {
    expect(run('      type: chat\n      content: "{{dateFormat at \'YYYY-MM-DD\'}}"\n')).toEqual([
      ['render-date-format', 'error', 7, 33, 45],
    ]);
  });

  it('warn about values that render empty with the sample: unknown subscriber fields, digest data without a digest, branding in an SMS', () => {
    expect(
      run(
        '      type: sms\n      content: "{{subscriber.nickname}} {{step.total_count}} {{branding.color}}"\n',
      ),
    ).toEqual([
      ['render-empty', 'warning', 7, 19, 38],
      ['render-empty', 'warning', 7, 43, 59],
      ['render-empty', 'warning', 7, 64, 78],
    ]);
  });

  it('do not warn about digest data after a digest, nor about the subscriber data the templates read', () => {
    const body =
      '      type: digest\n    metadata: {type: regular, amount: 5, unit: minutes}\n  - name: t\n    template:\n' +
      '      type: sms\n      content: "{{step.total_count}} {{#each step.events}}{{title}}{{/each}} {{subscriber.data.plan}}"\n';
    expect(run(body)).toEqual([]);
  });

  it('warn about a path a comparison block cannot see', () => {
    expect(run('      type: chat\n      content: "{{#gt count 1}}{{name}}{{/gt}}"\n')).toEqual([
      ['render-surprise', 'warning', 7, 34, 38],
    ]);
  });

  it('follow the configured severities', () => {
    expect(
      run('      type: sms\n      content: Hi {{shout name}}\n', { 'render-helper-unknown': 'off' }),
    ).toEqual([]);
    expect(
      run('      type: sms\n      content: Hi {{shout name}}\n', { 'render-helper-unknown': 'warning' }),
    ).toEqual([['render-helper-unknown', 'warning', 7, 21, 26]]);
  });
});

describe('renderFindingsToDiagnostics', () => {
  it('positions a finding inside its string, and the whole value without offsets', () => {
    const definition = loadYaml(
      `${HEAD}      type: sms\n      content: Hi {{shout name}}\n${TRIGGER}`,
      'workflows/a.yaml',
    );
    const diagnostics = renderFindingsToDiagnostics(definition, [
      {
        code: 'render-helper-unknown',
        severity: 'error',
        message: 'no',
        pointer: '/steps/0/template/content',
        start: 5,
        end: 10,
      },
      { code: 'render-failed', severity: 'error', message: 'boom', pointer: '/steps/0/template/content' },
    ]);
    expect(diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.endColumn, d.message])).toEqual([
      ['render-helper-unknown', 'workflows/a.yaml', 7, 21, 26, 'steps[0].template.content: no'],
      ['render-failed', 'workflows/a.yaml', 7, 16, 33, 'steps[0].template.content: boom'],
    ]);
    expect(renderFindingsToDiagnostics(definition, [], {})).toEqual([]);
  });
});
