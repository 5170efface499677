import { describe, expect, it } from 'vitest';
import { MAX_DEFINITION_DEPTH } from '../../../../src/json.js';
import { summarizeParseError } from '../../../../src/validate/rules/template-syntax.js';
import { yaml } from '../../../helpers/load-yaml.js';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

const HEAD =
  'name: order shipped\nnotificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9\nsteps:\n  - name: s\n    template:\n';
const run = (text: string) => check(text + TRIGGER, {}, 'template-syntax');

describe('template-syntax', () => {
  it('accepts valid templates', () => {
    const text = `${HEAD}      type: in_app\n      content: "{{#each items}}{{title}}{{/each}} {{#if vip}}VIP{{/if}}"\n`;
    expect(run(text)).toEqual([]);
  });

  it('reports an unclosed mustache in a plain scalar, where Handlebars stopped reading', () => {
    const text = `${HEAD}      type: sms\n      content: Hello {{name\n`;
    expect(run(text).map(brief)).toEqual([
      {
        code: 'template-syntax',
        severity: 'error',
        line: 7,
        column: 24,
        message:
          'steps[0].template.content is not valid Handlebars (an unclosed or malformed `{{…}}`), so the service would ' +
          'answer 400 "Failed to extract variables": fix the template.',
      },
    ]);
  });

  it('maps a position inside a literal block scalar to its file line and column', () => {
    const text = yaml`
      name: order shipped
      notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
      steps:
        - name: s
          template:
            type: chat
            content: |
              Hello
                {{#if vip}}Thanks{{/each}}
    `;
    expect(run(text).map(brief)).toEqual([
      {
        code: 'template-syntax',
        severity: 'error',
        line: 9,
        column: 14,
        message:
          'steps[0].template.content is not valid Handlebars (`{{#if}}` is closed by `{{/each}}`), so the ' +
          'service would answer 400 "Failed to extract variables": fix the template.',
      },
    ]);
  });

  it('reports a template nested past the limit at the block that goes too deep, without parsing it', () => {
    // One block per line, 20,000 deep (near the 1 MiB file limit): Handlebars' parser would take hours, and the
    // walkers of its tree overflow the stack.
    const depth = 20_000;
    const body = `${'        {{#if a}}\n'.repeat(depth)}        x\n${'        {{/if}}\n'.repeat(depth)}`;
    const text = `${HEAD}      type: chat\n      content: |\n${body}`;
    expect(run(text).map(brief)).toEqual([
      {
        code: 'template-syntax',
        severity: 'error',
        line: 8 + MAX_DEFINITION_DEPTH,
        column: 9,
        message:
          `steps[0].template.content nests Handlebars deeper than ${MAX_DEFINITION_DEPTH} levels (blocks, ` +
          '`{{else if}}` chains and sub-expressions), so wfsync does not read it: flatten the template.',
      },
    ]);
  });

  it('reports valid Handlebars the service cannot extract variables from', () => {
    const text = `${HEAD}      type: in_app\n      content: "Hi {{uppercase 5}}"\n`;
    expect(run(text).map(brief)).toEqual([
      {
        code: 'template-syntax',
        severity: 'error',
        line: 7,
        column: 32,
        message:
          "steps[0].template.content cannot be read by the service's variable extraction (`5` stands where the " +
          'service\'s variable extraction expects a name), so the service would answer 400 "Failed to extract ' +
          'variables": fix the template.',
      },
    ]);
  });

  it('checks email blocks and points into the block content', () => {
    const text = `${HEAD}      type: email\n      subject: Hi\n      content:\n        - type: text\n          content: "a {{/b}}"\n`;
    const found = run(text);
    expect(found.map((d) => [d.pointer, d.line, d.column])).toEqual([
      ['/steps/0/template/content/0/content', 10, 23],
    ]);
  });
});

describe('summarizeParseError', () => {
  it('names what came instead of what was expected', () => {
    expect(summarizeParseError("Parse error on line 1: Expecting 'CLOSE', got 'EOF'")).toBe(
      'expected `}}`, got end of text',
    );
    expect(summarizeParseError("Parse error on line 2: Expecting 'ID', 'STRING', got 'CLOSE'")).toBe(
      'unexpected `}}`',
    );
    expect(summarizeParseError('Parse error on line 3:')).toBe('parse error');
    expect(summarizeParseError("Parse error on line 1: Expecting 'ID', got 'INVALID'")).toBe(
      'an unclosed or malformed `{{…}}`',
    );
    expect(summarizeParseError("if doesn't match each - 2:9")).toBe('`{{#if}}` is closed by `{{/each}}`');
  });
});
