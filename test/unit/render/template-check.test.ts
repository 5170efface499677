import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { checkWorkflow } from '../../../src/render/index.js';
import { checkTemplate } from '../../../src/render/template-check.js';

const at = '/steps/0/template/content';
const codes = (source: string, context?: Record<string, unknown>) =>
  checkTemplate(source, at, context).map((f) => [f.code, source.slice(f.start, f.end)]);

describe('checkTemplate', () => {
  it('finds helpers the service does not have, positioned on the name', () => {
    expect(codes('Hi {{shout name}} {{#repeat 3}}x{{/repeat}} {{name}}')).toEqual([
      ['render-helper-unknown', 'shout'],
      ['render-helper-unknown', 'repeat'],
    ]);
  });

  it('does not call a plain variable or a Handlebars helper unknown', () => {
    expect(codes('{{shout}} {{#each xs}}{{lookup ../map this}}{{/each}} {{#if a}}{{/if}}')).toEqual([]);
  });

  it('finds a service helper given the wrong number of arguments, or used inline when it needs a block', () => {
    expect(
      codes('{{pluralize n "item"}} {{dateFormat d}} {{numberFormat n 2}} {{uppercase}} {{equals a b}}'),
    ).toEqual([
      ['render-helper-arity', 'pluralize'],
      ['render-helper-arity', 'dateFormat'],
      ['render-helper-arity', 'numberFormat'],
      ['render-helper-arity', 'uppercase'],
      ['render-helper-arity', 'equals'],
    ]);
    expect(
      codes('{{pluralize n "item" "items"}} {{#equals a b}}x{{/equals}} {{gt a 1}} {{sortBy xs}}'),
    ).toEqual([]);
  });

  // Expectations from the service's own CompileTemplate (compile-template.usecase.ts at novu@74a2e9a6: `equals` runs
  // `options.fn(this)`, the comparisons `fn(this)` with the module's `this`), and Handlebars 4.7's runtime, which adds
  // a `../` step only where a block's context differs from the one it is in; the outputs are in
  // test/fixtures/render-corpus/equals.json ("equals block context: …").
  it('warns where `../` climbs past the top inside equals, if or unless, and only there', () => {
    expect(codes('{{#equals a b}}{{name}} {{@root.name}} {{../name}}{{else}}{{../x}}{{/equals}}')).toEqual([
      ['render-surprise', '../name'],
      ['render-surprise', '../x'],
    ]);
    expect(codes('{{#if a}}{{#unless b}}{{../../name}}{{/unless}}{{/if}}')).toEqual([
      ['render-surprise', '../../name'],
    ]);
    // each, with and the comparisons give their body a context of its own: one `../` step each.
    expect(
      codes(
        '{{#each items}}{{#equals kind "a"}}{{name}} {{../name}} {{../../name}}{{/equals}}{{/each}}' +
          '{{#with inner}}{{#equals k 1}}{{../v}}{{/equals}}{{/with}}{{#gt a 1}}{{../name}}{{/gt}}' +
          '{{#each xs as |x|}}{{#if x}}{{../v}}{{/if}}{{else}}{{../v}}{{/each}}',
      ),
    ).toEqual([
      ['render-surprise', '../../name'],
      ['render-surprise', '../v'],
    ]);
    // A section (`{{#items}}`) may or may not change the context: not judged.
    expect(codes('{{#items}}{{#if a}}{{../../x}}{{/if}}{{/items}}')).toEqual([]);
    const [finding] = checkTemplate('{{#equals a b}}{{../name}}{{/equals}}', at, { name: 'N' });
    expect(finding?.message).toContain('write `@root.name`');
  });

  it('finds helpers inside sub-expressions', () => {
    expect(codes('{{#each (shout xs)}}{{/each}} {{uppercase (groupBy xs)}}')).toEqual([
      ['render-helper-unknown', 'shout'],
      ['render-helper-arity', 'groupBy'],
    ]);
  });

  it('refuses the date patterns date-fns refuses, positioned on the pattern', () => {
    expect(codes('{{dateFormat d "YYYY-MM-DD"}} {{dateFormat d "yyyy-MM-dd"}}')).toEqual([
      ['render-date-format', '"YYYY-MM-DD"'],
    ]);
    expect(codes('{{dateFormat d "yyyy j"}}')).toEqual([['render-date-format', '"yyyy j"']]);
  });

  it('warns about paths a comparison block cannot see, but not @root or ../', () => {
    const findings = codes('{{#gt count 1}}{{name}} {{@root.name}} {{../name}} {{uppercase title}}{{/gt}}');
    expect(findings).toEqual([
      ['render-surprise', 'name'],
      ['render-surprise', 'title'],
    ]);
  });

  it('warns that decimalLength=0 means 2 decimals', () => {
    expect(codes('{{numberFormat n decimalLength=0}}')).toEqual([['render-surprise', 'numberFormat']]);
  });

  it('finds values that render empty with the data, through arrays, not conditions', () => {
    const context = { name: 'Ada', items: [{ title: 'a' }, { title: '' }], subscriber: { firstName: 'Ada' } };
    expect(
      codes(
        '{{name}} {{nmae}} {{#each items}}{{title}}{{/each}} {{subscriber.fristName}} {{#if optional}}{{/if}} {{#each missing}}{{/each}} {{uppercase gone}}',
        context,
      ),
    ).toEqual([
      ['render-empty', 'nmae'],
      ['render-empty', 'title'],
      ['render-empty', 'subscriber.fristName'],
      ['render-empty', 'missing'],
      ['render-empty', 'gone'],
    ]);
  });

  it('reports nothing for a template that does not parse (the syntax rule does)', () => {
    expect(codes('{{#if a}}')).toEqual([]);
  });
});

describe('checkWorkflow with the generated sample (validate): only the service variables can render empty', () => {
  const workflow = (template: Record<string, unknown>) =>
    ({ name: 'w', steps: [{ name: 's', template }], triggers: [] }) as unknown as WorkflowDefinition;
  const empties = (template: Record<string, unknown>) =>
    checkWorkflow(workflow(template))
      .filter((f) => f.code === 'render-empty')
      .map((f) => [f.pointer, f.start, f.end]);

  it('reports nothing for the sample subscriber’s fields and names that only start like a service variable', () => {
    expect(
      empties({
        type: 'email',
        contentType: 'customHtml',
        subject: 'Hi {{subscriber.firstName}}',
        content:
          '{{{subscriber.email}}} {{actorName}} {{steps}} {{mysubscriber.x}} {{#each lines}}{{subscriber.phone}}{{/each}}',
      }),
    ).toEqual([]);
  });

  it('still finds the service variables the sample leaves empty, next to the ones it fills', () => {
    expect(empties({ type: 'sms', content: '{{subscriber.firstName}} {{subscriber.nickname}}' })).toEqual([
      ['/steps/0/template/content', 27, 46],
    ]);
    expect(empties({ type: 'sms', content: '{{actorName}} {{step.events}}' })).toEqual([
      ['/steps/0/template/content', 16, 27],
    ]);
    expect(empties({ type: 'in_app', content: '{{subscriber.firstName}}{{branding.logo}}' })).toEqual([
      ['/steps/0/template/content', 26, 39],
    ]);
    expect(empties({ type: 'sms', content: '{{#with step}}{{subscriber.firstName}}{{/with}}' })).toHaveLength(
      1,
    );
    expect(empties({ type: 'sms', content: '{{ subscriber.nickname }}' })).toHaveLength(1);
  });
});
