import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { validateDefinitionSchema } from '../../../src/validate/schema.js';
import { loadYaml, yaml } from '../../helpers/load-yaml.js';

const FILE = 'workflows/test.yaml';

function check(text: string): Diagnostic[] {
  return validateDefinitionSchema(loadYaml(text, FILE));
}

/** What a test asserts: everything but the end of the span (asserted separately where it matters). */
function brief(d: Diagnostic) {
  return { code: d.code, line: d.line, column: d.column, pointer: d.pointer, message: d.message };
}

/** A valid definition whose parts the tests replace. */
const TRIGGERS = yaml`
  triggers:
    - type: event
      identifier: order-shipped
`;

describe('a valid definition', () => {
  test('has no schema diagnostics', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: in_app
            content: Order {{orderId}} shipped
    `;
    expect(check(text + TRIGGERS)).toEqual([]);
  });
});

describe('schema-type', () => {
  test('a YAML 1.2 "yes" where a boolean belongs: position, severity, file and hint', () => {
    const text = yaml`
      name: order shipped
      active: yes
      steps:
        - template: { type: sms, content: hi }
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-type',
        severity: 'error',
        file: FILE,
        pointer: '/active',
        line: 2,
        column: 9,
        endLine: 2,
        endColumn: 12,
        message:
          '`active` must be a boolean (got string "yes"; YAML reads it as a string; write true or false)',
      },
    ]);
  });

  test('`content` names what a user can write (text, email blocks, a file) and suggests quoting a number', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: sms
            content: 42
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-type',
        line: 5,
        column: 16,
        pointer: '/steps/0/template/content',
        message:
          '`steps[0].template.content` must be a string, a list of email blocks or `{file: ./path}` (got number 42; quote it to make it a string)',
      },
    ]);
  });

  test('`subject` and `title` (in a variant too) accept a string or a file reference, and say so', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: email, content: hi, subject: [Order shipped] }
        - template: { type: push, content: hi, title: null }
          variants:
            - template: { type: push, content: hi, title: false }
              filters: [{ value: AND, children: [{ on: payload, field: vip, value: "yes", operator: EQUAL }] }]
    `;
    expect(check(text + TRIGGERS).map((d) => [d.pointer, d.message])).toEqual([
      [
        '/steps/0/template/subject',
        '`steps[0].template.subject` must be a string or `{file: ./path}` (got an array)',
      ],
      [
        '/steps/1/template/title',
        '`steps[1].template.title` must be a string or `{file: ./path}` (got null)',
      ],
      [
        '/steps/1/variants/0/template/title',
        '`steps[1].variants[0].template.title` must be a string or `{file: ./path}` (got boolean false; quote it to make it a string)',
      ],
    ]);
  });

  test('a union type without a narrowed branch lists every JSON type', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: in_app
            content: hi
            variables: [{ name: vip, type: Boolean, defaultValue: [true] }]
    `;
    expect(check(text + TRIGGERS).map((d) => [d.code, d.message])).toEqual([
      [
        'schema-type',
        '`steps[0].template.variables[0].defaultValue` must be a string, a number or a boolean (got an array)',
      ],
    ]);
  });

  test('a string where an object is required (cta.action: "" is a 400 on the service)', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: in_app
            content: hi
            cta: { type: redirect, action: "" }
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-type',
        line: 6,
        column: 38,
        pointer: '/steps/0/template/cta/action',
        message: '`steps[0].template.cta.action` must be an object (got an empty string)',
      },
    ]);
  });

  test('a non-string value in an enum field is shown as written', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: 3 }
    `;
    expect(check(text + TRIGGERS).map((d) => [d.code, d.message])).toEqual([
      [
        'schema-enum',
        '`steps[0].template.type` must be one of: in_app, email, sms, chat, push, digest, trigger, delay, custom (got 3)',
      ],
    ]);
  });
});

describe('schema-required', () => {
  test('a missing property of a keyed object points at its key', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            content: hi
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-required',
        severity: 'error',
        file: FILE,
        pointer: '/steps/0/template/type',
        line: 3,
        column: 5,
        endLine: 3,
        endColumn: 13,
        message: '`steps[0].template` is missing required property `type`',
      },
    ]);
  });

  test('a missing property of an array item points at the item', () => {
    const text = yaml`
      name: order shipped
      steps:
        - name: first
        - template: { type: sms, content: hi }
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-required',
        line: 3,
        column: 5,
        pointer: '/steps/0/template',
        message: '`steps[0]` is missing required property `template`',
      },
    ]);
  });

  test('a missing top-level property names the definition', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: sms, content: hi }
    `;
    expect(check(text).map(brief)).toEqual([
      {
        code: 'schema-required',
        line: 1,
        column: 1,
        pointer: '/triggers',
        message: 'the workflow definition is missing required property `triggers`',
      },
    ]);
  });
});

describe('schema-additional-property', () => {
  test('a typo gets a did-you-mean and points at the key', () => {
    const text = yaml`
      name: order shipped
      steps:
        - shouldStopOnFial: true
          template: { type: sms, content: hi }
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-additional-property',
        severity: 'error',
        file: FILE,
        pointer: '/steps/0/shouldStopOnFial',
        line: 3,
        column: 5,
        endLine: 3,
        endColumn: 21,
        message: '`steps[0]` has an unknown property `shouldStopOnFial`; did you mean `shouldStopOnFail`?',
      },
    ]);
  });

  test('snake_case for a camelCase property is recognised', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: sms, content: hi, sender_name: Acme }
    `;
    expect(check(text + TRIGGERS).map((d) => d.message)).toEqual([
      '`steps[0].template` has an unknown property `sender_name`; did you mean `senderName`?',
    ]);
  });

  test('without a close match the allowed properties are listed', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: sms, content: hi }
          type: sms
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-additional-property',
        line: 4,
        column: 5,
        pointer: '/steps/0/type',
        message:
          '`steps[0]` has an unknown property `type`; allowed here: name, uuid, active, shouldStopOnFail, template, filters, metadata, replyCallback, variants',
      },
    ]);
  });

  test('one diagnostic per unknown key, in file order', () => {
    const text = yaml`
      name: order shipped
      colour: blue
      steps:
        - template: { type: sms, content: hi }
      priority: high
    `;
    expect(check(text + TRIGGERS).map((d) => [d.line, d.column, d.pointer])).toEqual([
      [2, 1, '/colour'],
      [5, 1, '/priority'],
    ]);
  });
});

describe('schema-server-managed-field', () => {
  test('ids and timestamps copied from a response are named as server fields', () => {
    const text = yaml`
      _id: 64f0c0ffee0000000000abcd
      name: order shipped
      createdAt: 2024-10-01T12:00:00.000Z
      steps:
        - _templateId: 64f0c0ffee0000000000abce
          template: { type: sms, content: hi }
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-server-managed-field',
        line: 1,
        column: 1,
        pointer: '/_id',
        message: '`_id` is set by the server; remove it from the definition',
      },
      {
        code: 'schema-server-managed-field',
        line: 3,
        column: 1,
        pointer: '/createdAt',
        message: '`createdAt` is set by the server; remove it from the definition',
      },
      {
        code: 'schema-server-managed-field',
        line: 5,
        column: 5,
        pointer: '/steps/0/_templateId',
        message: '`steps[0]._templateId` is set by the server; remove it from the definition',
      },
    ]);
  });

  test('draft, the workflow-level type and reservedVariables say what to do instead', () => {
    const text = yaml`
      name: order shipped
      draft: false
      type: REGULAR
      steps:
        - template: { type: sms, content: hi }
      triggers:
        - type: event
          identifier: order-shipped
          reservedVariables: []
    `;
    expect(check(text).map((d) => [d.code, d.line, d.message])).toEqual([
      [
        'schema-server-managed-field',
        2,
        '`draft` is set by the server; remove it from the definition (the server sets it to the opposite of `active`; set `active` instead)',
      ],
      [
        'schema-server-managed-field',
        3,
        '`type` is set by the server; remove it from the definition (the server sets it to "REGULAR"; a step\'s type goes in `steps[].template.type`)',
      ],
      [
        'schema-server-managed-field',
        9,
        '`triggers[0].reservedVariables` is set by the server; remove it from the definition (the server derives it from the `tenant.` and `actor.` variables the templates use)',
      ],
    ]);
  });
});

describe('schema-enum', () => {
  test('lists the allowed values and suggests the closest (transposed letters)', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: emial
            content: hi
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-enum',
        severity: 'error',
        file: FILE,
        pointer: '/steps/0/template/type',
        line: 4,
        column: 13,
        endLine: 4,
        endColumn: 18,
        message:
          '`steps[0].template.type` must be one of: in_app, email, sms, chat, push, digest, trigger, delay, custom (got "emial"; did you mean "email"?)',
      },
    ]);
  });

  test('case mistakes are suggested; newer step types are explained', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: throttle }
        - template: { type: sms, content: hi }
          filters:
            - value: and
              children: []
    `;
    expect(check(text + TRIGGERS).map((d) => [d.line, d.column, d.message])).toEqual([
      [
        3,
        23,
        '`steps[0].template.type` must be one of: in_app, email, sms, chat, push, digest, trigger, delay, custom (got "throttle"; only newer servers know this step type)',
      ],
      [6, 16, '`steps[1].filters[0].value` must be one of: AND, OR (got "and"; did you mean "AND"?)'],
    ]);
  });

  test('a single allowed value is shown as such', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: sms, content: hi }
      triggers:
        - type: Event
          identifier: order-shipped
    `;
    expect(check(text).map((d) => d.message)).toEqual([
      '`triggers[0].type` must be "event" (got "Event"; did you mean "event"?)',
    ]);
  });
});

describe('schema-const', () => {
  test('names the only allowed value', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: in_app
            content: hi
            cta:
              type: link
              data: { url: /orders }
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-const',
        line: 7,
        column: 15,
        pointer: '/steps/0/template/cta/type',
        message: '`steps[0].template.cta.type` must be "redirect" (got "link")',
      },
    ]);
  });
});

describe('schema-pattern', () => {
  test('explains the expected form in words, not as a regular expression', () => {
    const text = yaml`
      name: order shipped
      notificationGroupId: group:Transactional
      steps:
        - template: { type: sms, content: hi }
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-pattern',
        severity: 'error',
        file: FILE,
        pointer: '/notificationGroupId',
        line: 2,
        column: 22,
        endLine: 2,
        endColumn: 41,
        message:
          '`notificationGroupId` must be a 24-character lower-case hex id or `group:<name>` with a name of lower-case letters, digits, `_` and `-` (got string "group:Transactional")',
      },
    ]);
  });

  test('a timed digest time of day', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: digest }
          metadata:
            type: timed
            timed: { atTime: 9am }
    `;
    expect(check(text + TRIGGERS).map(brief)).toEqual([
      {
        code: 'schema-pattern',
        line: 6,
        column: 24,
        pointer: '/steps/0/metadata/timed/atTime',
        message:
          '`steps[0].metadata.timed.atTime` must be a 24-hour time HH:mm such as 09:30 (got string "9am")',
      },
    ]);
  });
});

describe('schema-bounds', () => {
  test('a name over 128 characters names the bound and the length', () => {
    const name = 'a'.repeat(129);
    const text = `name: ${name}\nsteps:\n  - template: { type: sms, content: hi }\n`;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-bounds',
        severity: 'error',
        file: FILE,
        pointer: '/name',
        line: 1,
        column: 7,
        endLine: 1,
        endColumn: 136,
        message: '`name` must be at most 128 characters long (got 129)',
      },
    ]);
  });

  test('length counts characters, not UTF-16 units: 128 emoji are fine, 257 in a description are not', () => {
    const ok = `name: ${'🚚'.repeat(128)}\ndescription: ${'é'.repeat(257)}\nsteps:\n  - template: { type: sms, content: hi }\n`;
    expect(check(ok + TRIGGERS).map((d) => [d.pointer, d.message])).toEqual([
      ['/description', '`description` must be at most 256 characters long (got 257)'],
    ]);
  });

  test('empty strings and arrays, exact counts and numeric limits', () => {
    const text = yaml`
      name: ""
      tags: [""]
      steps: []
      triggers:
        - type: event
          identifier: a
        - type: event
          identifier: b
    `;
    expect(check(text).map((d) => [d.line, d.column, d.message])).toEqual([
      [1, 7, '`name` must not be empty'],
      [2, 8, '`tags[0]` must not be empty'],
      [3, 8, '`steps` must have at least 1 item (got 0)'],
      [5, 3, '`triggers` must have exactly 1 item (got 2)'],
    ]);
  });

  test('more than 20 steps', () => {
    const steps = Array.from({ length: 21 }, () => '  - template: { type: sms, content: hi }\n').join('');
    const text = `name: order shipped\nsteps:\n${steps}`;
    expect(check(text + TRIGGERS).map((d) => [d.line, d.column, d.message])).toEqual([
      [3, 3, '`steps` must have at most 20 items (got 21)'],
    ]);
  });

  test('minimum and maximum of numbers', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template: { type: digest }
          metadata:
            amount: -1
            timed: { monthDays: [0, 31, 32] }
    `;
    expect(check(text + TRIGGERS).map((d) => [d.line, d.column, d.message])).toEqual([
      [5, 15, '`steps[0].metadata.amount` must be at least 0 (got -1)'],
      [6, 28, '`steps[0].metadata.timed.monthDays[0]` must be at least 1 (got 0)'],
      [6, 35, '`steps[0].metadata.timed.monthDays[2]` must be at most 31 (got 32)'],
    ]);
  });
});

describe('schema-unique', () => {
  test('points at the repeated item and names the first one', () => {
    const text = yaml`
      name: order shipped
      tags: [orders, mail, orders]
      steps:
        - template: { type: digest }
          metadata:
            type: timed
            timed: { weekDays: [monday, friday, monday] }
    `;
    expect(check(text + TRIGGERS)).toEqual([
      {
        code: 'schema-unique',
        severity: 'error',
        file: FILE,
        pointer: '/tags/2',
        line: 2,
        column: 22,
        endLine: 2,
        endColumn: 28,
        message: '`tags[2]` repeats `tags[0]` ("orders"); items must be unique',
      },
      {
        code: 'schema-unique',
        severity: 'error',
        file: FILE,
        pointer: '/steps/0/metadata/timed/weekDays/2',
        line: 7,
        column: 43,
        endLine: 7,
        endColumn: 49,
        message:
          '`steps[0].metadata.timed.weekDays[2]` repeats `steps[0].metadata.timed.weekDays[0]` ("monday"); items must be unique',
      },
    ]);
  });
});

describe('several problems in one file', () => {
  test('are all reported, sorted by position', () => {
    const text = yaml`
      name: order shipped
      steps:
        - template:
            type: emial
          filters:
            - value: AND
              children:
                - on: payload
                  operator: BIGGER
        - name: second
      triggers:
        - type: event
    `;
    expect(check(text).map((d) => [d.line, d.code, d.pointer])).toEqual([
      [4, 'schema-enum', '/steps/0/template/type'],
      [9, 'schema-enum', '/steps/0/filters/0/children/0/operator'],
      [10, 'schema-required', '/steps/1/template'],
      [12, 'schema-required', '/triggers/0/identifier'],
    ]);
  });
});
