/**
 * The trigger-variable rules, every field of every finding (code, severity, message, pointer, position), and the
 * inputs they must stay quiet on.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src/diagnostic.js';
import { check, yaml } from '../../../helpers/rules.js';

const CODES = ['variable-undeclared', 'variable-unused', 'variable-type-mismatch'];

/** A one-line finding in the test file, as `wfsync validate` reports it. */
function finding(
  code: string,
  pointer: string,
  [line, column, endColumn]: [number, number, number],
  message: string,
): Diagnostic {
  return {
    code,
    severity: 'warning',
    message,
    file: 'workflows/test.yaml',
    pointer,
    line,
    column,
    endLine: line,
    endColumn,
  };
}

const undeclared = (name: string, where: string, type: string) =>
  `\`${name}\` is used in ${where} but not declared in triggers[0].variables; the service will add it to the ` +
  `trigger, so declare it there (type ${type}).`;

const steps = yaml`
  name: w
  notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
  triggers:
    - identifier: w
      type: event
      variables:
        - {name: a}
  steps:
    - template: {type: sms, content: "{{b}}"}
    - template:
        type: chat
        content: "{{#each b}}{{/each}} {{c}} {{d}}"
        variables: [{name: c}]
    - template: {type: push, title: "t", content: "{{#if d}}{{/if}} {{c}}"}
      variants:
        - template:
            type: push
            title: "{{e}}"
            content: "x"
            variables: [{name: e, type: Array}, {name: f}, {name: a}]
`;

describe('variable-undeclared', () => {
  it('reports each name once, at its first use a step does not declare, with the type of its last use', () => {
    expect(check(steps, {}, 'variable-undeclared')).toEqual([
      // `b`: a value in steps[0], an array in steps[1]: the service keeps Array.
      finding(
        'variable-undeclared',
        '/steps/0/template/content',
        [9, 39, 40],
        undeclared('b', 'steps[0].template.content', 'Array'),
      ),
      // `d`: a value in steps[1], a condition in steps[2]: Boolean.
      finding(
        'variable-undeclared',
        '/steps/1/template/content',
        [12, 46, 47],
        undeclared('d', 'steps[1].template.content', 'Boolean'),
      ),
      // `c`: steps[1] declares it in its template, steps[2] does not. `e` is only in a variant, which the service
      // does not read.
      finding(
        'variable-undeclared',
        '/steps/2/template/content',
        [14, 69, 70],
        undeclared('c', 'steps[2].template.content', 'String'),
      ),
    ]);
  });

  it('points at a filter field as a whole value', () => {
    const text = yaml`
      name: w
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers: [{identifier: w, type: event, variables: [{name: x}]}]
      steps:
        - template: {type: sms, content: "{{x}}"}
          filters: [{value: AND, children: [{on: payload, field: region, value: eu, operator: EQUAL}]}]
    `;
    expect(check(text, {}, ...CODES)).toEqual([
      finding(
        'variable-undeclared',
        '/steps/0/filters/0/children/0/field',
        [6, 60, 66],
        undeclared('region', 'steps[0].filters[0].children[0].field', 'String'),
      ),
    ]);
  });

  it('reports every use when the trigger declares an empty list', () => {
    const text = yaml`
      name: w
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers: [{identifier: w, type: event, variables: []}]
      steps:
        - template: {type: sms, content: "{{x}}{{y}}"}
    `;
    expect(check(text, {}, ...CODES)).toEqual([
      finding(
        'variable-undeclared',
        '/steps/0/template/content',
        [5, 39, 40],
        undeclared('x', 'steps[0].template.content', 'String'),
      ),
      finding(
        'variable-undeclared',
        '/steps/0/template/content',
        [5, 44, 45],
        undeclared('y', 'steps[0].template.content', 'String'),
      ),
    ]);
  });

  it('is quiet when the trigger declares no variables, or declares every one used', () => {
    const uses = 'steps:\n  - template: {type: sms, content: "{{x}} {{#each y}}{{z}}{{/each}}"}\n';
    const head = 'name: w\nnotificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9\n';
    expect(check(`${head}triggers: [{identifier: w, type: event}]\n${uses}`, {}, ...CODES)).toEqual([]);
    const all = 'variables: [{name: x}, {name: y, type: Array}, {name: y.z}]';
    expect(check(`${head}triggers: [{identifier: w, type: event, ${all}}]\n${uses}`, {}, ...CODES)).toEqual(
      [],
    );
  });
});

describe('variable-unused and variable-type-mismatch', () => {
  it('report declarations in steps and variants against the strings of that step', () => {
    expect(check(steps, {}, 'variable-unused', 'variable-type-mismatch')).toEqual([
      finding(
        'variable-unused',
        '/triggers/0/variables/0/name',
        [7, 16, 17],
        'triggers[0].variables[0] `a` is declared but the service derives no such variable from the steps ' +
          '(variants are not read), so it will not be on the trigger and every plan would show drift: remove it ' +
          'or use it.',
      ),
      finding(
        'variable-type-mismatch',
        '/steps/2/variants/0/template/variables/0/type',
        [20, 39, 44],
        'steps[2].variants[0].template.variables[0].type is Array but `e` is String where it is used (it is used ' +
          'as a value in steps[2].variants[0].template.title): change it to String.',
      ),
      finding(
        'variable-unused',
        '/steps/2/variants/0/template/variables/1/name',
        [20, 54, 55],
        'steps[2].variants[0].template.variables[1] `f` is not used in the strings of steps[2].variants[0]: ' +
          'remove it or use it.',
      ),
      finding(
        'variable-unused',
        '/steps/2/variants/0/template/variables/2/name',
        [20, 65, 66],
        'steps[2].variants[0].template.variables[2] `a` is not used in the strings of steps[2].variants[0]: ' +
          'remove it or use it.',
      ),
    ]);
  });

  const types = yaml`
    name: w
    notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
    triggers:
      - identifier: w
        type: event
        variables:
          - {name: s, type: Boolean}
          - {name: b, type: String}
          - {name: t}
          - {name: u, type: String}
          - {name: subscriber.email}
          - {name: tenant.name, type: String}
    steps:
      - template:
          type: in_app
          content: "{{s}} {{#if b}}{{/if}} {{t}} {{u}} {{#each list}}{{/each}}"
          variables:
            - {name: list, type: String}
            - {name: s, type: Array}
            - {name: u, type: String}
            - {name: t}
      - template: {type: sms, content: "{{#unless z}}{{/unless}}", variables: []}
  `;

  it('say which type the use calls for and why; no type or the same type is no finding', () => {
    expect(check(types, {}, 'variable-type-mismatch')).toEqual([
      finding(
        'variable-type-mismatch',
        '/triggers/0/variables/0/type',
        [7, 25, 32],
        'triggers[0].variables[0].type is Boolean but the service derives String for `s` (it is used as a value ' +
          'in steps[0].template.content): change it to String.',
      ),
      finding(
        'variable-type-mismatch',
        '/triggers/0/variables/1/type',
        [8, 25, 31],
        'triggers[0].variables[1].type is String but the service derives Boolean for `b` (it is used with ' +
          '`{{#if}}` or `{{#unless}}` in steps[0].template.content): change it to Boolean.',
      ),
      finding(
        'variable-type-mismatch',
        '/steps/0/template/variables/0/type',
        [18, 30, 36],
        'steps[0].template.variables[0].type is String but `list` is Array where it is used (it is used with ' +
          '`{{#each}}` in steps[0].template.content): change it to Array.',
      ),
      finding(
        'variable-type-mismatch',
        '/steps/0/template/variables/1/type',
        [19, 27, 32],
        'steps[0].template.variables[1].type is Array but `s` is String where it is used (it is used as a value ' +
          'in steps[0].template.content): change it to String.',
      ),
    ]);
  });

  it('tell a system variable from one no step uses; an empty step list and used declarations are no finding', () => {
    expect(check(types, {}, 'variable-unused')).toEqual([
      finding(
        'variable-unused',
        '/triggers/0/variables/4/name',
        [11, 16, 32],
        'triggers[0].variables[4] `subscriber.email` is declared but the service provides it and never puts it ' +
          'on the trigger: remove it or use it.',
      ),
      finding(
        'variable-unused',
        '/triggers/0/variables/5/name',
        [12, 16, 27],
        'triggers[0].variables[5] `tenant.name` is declared but the service provides it and never puts it on ' +
          'the trigger: remove it or use it.',
      ),
    ]);
    // `list` is declared by the step that uses it, so the trigger need not; `z` is not.
    expect(check(types, {}, 'variable-undeclared')).toEqual([
      finding(
        'variable-undeclared',
        '/steps/1/template/content',
        [22, 47, 48],
        undeclared('z', 'steps[1].template.content', 'Boolean'),
      ),
    ]);
  });

  it('give the same findings run alone as together (the step scan they share is per workflow and step)', () => {
    const together = check(types, {}, ...CODES);
    const alone = CODES.flatMap((code) => check(types, {}, code));
    expect(together).toHaveLength(7);
    expect(new Set(together)).toEqual(new Set(alone));
    // Another workflow in between: nothing of the first carries over.
    expect(check(steps, {}, ...CODES)).toHaveLength(7);
    expect(check(types, {}, ...CODES)).toEqual(together);
  });
});

describe('variable-type-mismatch on a step declaration its own content never uses', () => {
  it('is no finding (the name may be used by another step, or not at all: variable-unused says so)', () => {
    const text = yaml`
      name: w
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      triggers:
        - identifier: w
          type: event
          variables: [{name: used}]
      steps:
        - template: {type: sms, content: "{{used}}", variables: [{name: elsewhere, type: Array}]}
    `;
    expect(check(text, {}, 'variable-type-mismatch')).toEqual([]);
  });
});
