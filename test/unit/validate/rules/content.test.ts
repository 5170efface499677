import { describe, expect, it } from 'vitest';
import { buildFileChecks } from '../../../../src/validate/index.js';
import { brief, check, loadYaml, TRIGGER, validation } from '../../../helpers/rules.js';

/** Workflow whose single step's template (line 5) holds the given flow-mapping fields. */
function template(fields: string): string {
  return [
    'name: order shipped',
    'notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9',
    'steps:',
    '  - name: s',
    `    template: {${fields}}`,
    '',
  ].join('\n');
}

const codes = ['step-content-missing', 'email-subject-missing', 'push-title-missing', 'cta-action-empty'];
const run = (text: string) => check(text + TRIGGER, {}, ...codes).map(brief);

describe('step-content-missing', () => {
  it('accepts channel steps with content and non-channel steps without', () => {
    expect(run(template('type: sms, content: "Your order {{orderId}} shipped"'))).toEqual([]);
    expect(run(template('type: chat, content: hi'))).toEqual([]);
    expect(run(template('type: in_app, content: hi'))).toEqual([]);
    expect(run(template('type: email, subject: Shipped, content: [{type: text, content: hi}]'))).toEqual([]);
    expect(run(template('type: push, title: Shipped, content: hi'))).toEqual([]);
    expect(run(template('type: custom'))).toEqual([]);
  });

  it('reports absent content at the template key', () => {
    expect(run(template('type: sms'))).toEqual([
      {
        code: 'step-content-missing',
        severity: 'error',
        line: 5,
        column: 5,
        message:
          'steps[0].template has no content: an sms step sends its content as the message, so add ' +
          'steps[0].template.content.',
      },
    ]);
  });

  it('reports blank content at the content', () => {
    expect(run(template('type: chat, content: "  "'))).toEqual([
      {
        code: 'step-content-missing',
        severity: 'error',
        line: 5,
        column: 37,
        message:
          'steps[0].template.content is empty: a chat step sends its content as the message, so fill it in.',
      },
    ]);
  });

  it('reports an email without blocks', () => {
    expect(run(template('type: email, subject: Hi, content: []'))).toEqual([
      {
        code: 'step-content-missing',
        severity: 'error',
        line: 5,
        column: 51,
        message:
          'steps[0].template.content has no blocks: an email step sends its content as the message, so add at ' +
          'least one block.',
      },
    ]);
  });
});

describe('email-subject-missing and push-title-missing', () => {
  it('warn about an email without subject and a push without title', () => {
    expect(run(template('type: email, content: "<p>hi</p>", contentType: customHtml'))).toEqual([
      {
        code: 'email-subject-missing',
        severity: 'warning',
        line: 5,
        column: 5,
        message:
          'steps[0].template has no subject: the email would go out without a subject line, so add ' +
          'steps[0].template.subject.',
      },
    ]);
    expect(run(template('type: push, content: hi, title: ""'))).toEqual([
      {
        code: 'push-title-missing',
        severity: 'warning',
        line: 5,
        column: 48,
        message: 'steps[0].template.title is empty: the notification would show no title, so fill it in.',
      },
    ]);
  });
});

describe('cta-action-empty', () => {
  it('accepts an absent or non-empty action', () => {
    expect(run(template('type: in_app, content: hi, cta: {type: redirect, data: {url: /orders}}'))).toEqual(
      [],
    );
  });

  // The schema wants an object there; the rule runs before it, and its message replaces the schema's at that place.
  it("reports an empty action once, with the service's reason, through the whole validation", () => {
    const text = template('type: in_app, content: hi, cta: {type: redirect, action: ""}') + TRIGGER;
    const definition = loadYaml(text);
    expect(validation({ definitions: [definition], options: {} }).map(brief)).toEqual([
      {
        code: 'cta-action-empty',
        severity: 'error',
        line: 5,
        column: 73,
        message:
          'steps[0].template.cta.action is an empty string, which the service rejects with 400: remove it or set ' +
          'the action.',
      },
    ]);
  });

  it('leaves the schema error in place when the rule is turned off', () => {
    const text = template('type: in_app, content: hi, cta: {type: redirect, action: ""}') + TRIGGER;
    const codes = validation({
      definitions: [loadYaml(text)],
      options: { severities: { 'cta-action-empty': 'off' } },
    }).map((d) => d.code);
    expect(codes).toEqual(['schema-type']);
  });

  it('leaves the schema error in place when a comment silences the rule', () => {
    const text = template('type: in_app, content: hi, cta: {type: redirect, action: ""}').replace(
      /^( *)template: /m,
      '$1# wfsync-disable-next-line cta-action-empty -- filled in by a later step\n$1template: ',
    );
    const checks = buildFileChecks({ definitions: [loadYaml(text + TRIGGER)], options: {} });
    expect(checks.suppressed.map((d) => d.code)).toEqual(['cta-action-empty']);
    expect(checks.diagnostics.map((d) => d.code)).toEqual(['schema-type']);
  });

  it('survives definitions of any shape (it runs before the schema)', () => {
    for (const text of ['steps: 3\n', 'steps: [1, {template: 2}, {template: {cta: []}}]\n', 'name: x\n']) {
      expect(() => validation({ definitions: [loadYaml(text)], options: {} })).not.toThrow();
    }
  });
});
