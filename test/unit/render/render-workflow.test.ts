import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition, WorkflowStep } from '../../../src/generated/workflow.js';
import { renderWorkflow, sampleData } from '../../../src/render/index.js';
import { aWorkflow } from '../../helpers/workflow.js';

const withSteps = (...steps: WorkflowStep[]): WorkflowDefinition =>
  aWorkflow({ steps: steps as WorkflowDefinition['steps'] });

describe('renderWorkflow', () => {
  it('renders each step with the payload at the top level and the subscriber beside it', () => {
    const workflow = withSteps(
      {
        name: 'inbox',
        template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}, order {{orderId}}' },
      },
      { name: 'text', template: { type: 'sms', content: 'Total {{total}}' } },
    );
    const result = renderWorkflow(workflow, {
      payload: { orderId: 'A1', total: 3 },
      subscriber: { firstName: 'Ada' },
    });
    expect(result.steps.map((s) => [s.name, s.type, s.content, s.contentType])).toEqual([
      ['inbox', 'in_app', 'Hi Ada, order A1', 'text'],
      ['text', 'sms', 'Total 3', 'text'],
    ]);
    expect(result.findings).toEqual([]);
  });

  it('renders only the step named or indexed', () => {
    const workflow = withSteps(
      { name: 'a', template: { type: 'sms', content: 'A' } },
      { name: 'b', template: { type: 'sms', content: 'B' } },
    );
    const data = { payload: {}, subscriber: {} };
    expect(renderWorkflow(workflow, data, { step: 'b' }).steps.map((s) => s.content)).toEqual(['B']);
    expect(renderWorkflow(workflow, data, { step: 0 }).steps.map((s) => [s.index, s.content])).toEqual([
      [0, 'A'],
    ]);
    expect(renderWorkflow(workflow, data, { step: 'nope' }).steps).toEqual([]);
  });

  it('names a step without a name by its type and position; renders nothing for digest and delay', () => {
    const workflow = withSteps(
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      { template: { type: 'sms', content: 'x' } },
    );
    const [digest, sms] = renderWorkflow(workflow, { payload: {}, subscriber: {} }).steps;
    expect(digest).toEqual({ index: 0, name: 'digest #0', type: 'digest' });
    expect(sms?.name).toBe('sms #1');
  });

  it('fails a step as the service would, with one positioned finding', () => {
    const workflow = withSteps({ name: 'text', template: { type: 'sms', content: 'Hi {{shout name}}' } });
    const result = renderWorkflow(workflow, { payload: { name: 'Ada' }, subscriber: {} });
    expect(result.steps[0]?.error).toBe('Missing helper: "shout"');
    expect(result.steps[0]?.content).toBeUndefined();
    expect(result.findings).toEqual([
      expect.objectContaining({
        code: 'render-helper-unknown',
        severity: 'error',
        pointer: '/steps/0/template/content',
        start: 5,
        end: 10,
      }),
    ]);
  });

  it('says where a template that does not compile breaks', () => {
    const workflow = withSteps({ name: 'text', template: { type: 'chat', content: 'Hi {{#if a}}' } });
    const result = renderWorkflow(workflow, { payload: {}, subscriber: {} });
    expect(result.steps[0]?.error).toMatch(/Parse error/);
    expect(result.findings).toEqual([
      expect.objectContaining({
        code: 'render-failed',
        pointer: '/steps/0/template/content',
        start: expect.any(Number),
      }),
    ]);
  });

  it('reports values that render empty, positioned', () => {
    const workflow = withSteps({
      name: 'text',
      template: { type: 'chat', content: 'Hi {{subscriber.nickname}}' },
    });
    const result = renderWorkflow(workflow, { payload: {}, subscriber: { firstName: 'Ada' } });
    expect(result.steps[0]?.content).toBe('Hi ');
    expect(result.findings).toEqual([
      expect.objectContaining({ code: 'render-empty', severity: 'warning', start: 5, end: 24 }),
    ]);
  });

  it('flags HTML escapes in plain text', () => {
    const workflow = withSteps({ name: 'text', template: { type: 'sms', content: 'From {{shop}}' } });
    const result = renderWorkflow(workflow, { payload: { shop: 'A & B' }, subscriber: {} });
    expect(result.steps[0]?.content).toBe('From A &amp; B');
    expect(result.findings.map((f) => f.code)).toEqual(['render-surprise']);
  });

  it('lays out editor blocks, rendering and trimming each block, the button in the brand color', () => {
    const workflow = withSteps({
      name: 'mail',
      template: {
        type: 'email',
        subject: ' Hello {{name}} ',
        content: [
          { type: 'text', content: ' <b>{{name}}</b> ', styles: { textAlign: 'center' } },
          { type: 'button', content: 'Open', url: ' https://example.com/{{id}} ' },
        ],
      },
    });
    const [step] = renderWorkflow(workflow, { payload: { name: 'Ada', id: 7 }, subscriber: {} }).steps;
    expect(step?.subject).toBe('Hello Ada');
    expect(step?.contentType).toBe('html');
    expect(step?.content).toContain(
      '<div style="margin-bottom: 10px; text-align: center"><p><b>Ada</b></p></div>',
    );
    expect(step?.content).toContain('href="https://example.com/7"');
    expect(step?.content).toContain('background: #f47373');
  });

  it('fails an email whose string content is not marked customHtml, as the service reads it as blocks', () => {
    const workflow = withSteps({
      name: 'mail',
      template: { type: 'email', subject: 's', content: '<p>x</p>' },
    });
    const result = renderWorkflow(workflow, { payload: {}, subscriber: {} });
    expect(result.steps[0]?.error).toBe("Cannot create property 'content' on string '<'");
    expect(result.findings[0]?.message).toMatch(/customHtml/);
  });

  // compile-template.usecase.ts at novu@74a2e9a6 (`numberFormat`: `parseFloat(number).toFixed(…)`); the outputs for
  // each kind of value are in test/fixtures/render-corpus/number-format.json.
  it('renders numberFormat on values that are not numbers as the service does, and warns where it prints NaN', () => {
    const workflow = withSteps({
      name: 'text',
      template: {
        type: 'chat',
        content: '{{numberFormat a}}|{{numberFormat b}}|{{numberFormat c}}|{{numberFormat d}}',
      },
    });
    const result = renderWorkflow(workflow, {
      payload: { a: '12.5abc', b: '', c: null, d: true },
      subscriber: {},
    });
    expect(result.steps[0]?.content).toBe('12.50|NaN|NaN|NaN');
    const nan = result.findings.filter((f) => f.message.includes('`NaN`'));
    expect(nan.map((f) => [f.code, f.start])).toEqual([['render-surprise', 2]]);
    const fine = renderWorkflow(workflow, { payload: { a: 1, b: '2', c: 3.5, d: '4px' }, subscriber: {} });
    expect(fine.steps[0]?.content).toBe('1.00|2.00|3.50|4.00');
    expect(fine.findings).toEqual([]);
  });

  it('previews i18n as its key and says so', () => {
    const workflow = withSteps({
      name: 'text',
      template: { type: 'chat', content: "{{i18n 'welcome.title'}} {{#i18n 'x'}}Hi{{/i18n}}" },
    });
    const result = renderWorkflow(workflow, { payload: {}, subscriber: {} });
    expect(result.steps[0]?.content).toBe('welcome.title Hi');
    expect(result.findings.map((f) => f.code)).toEqual(['render-unsupported', 'render-unsupported']);
  });

  it('does not let a helper that sorts in place change the caller data or another step', () => {
    const payload = { xs: [{ n: 2 }, { n: 1 }] };
    const workflow = withSteps(
      { name: 'a', template: { type: 'chat', content: '{{#each (sortBy xs "n")}}{{n}}{{/each}}' } },
      { name: 'b', template: { type: 'chat', content: '{{#each xs}}{{n}}{{/each}}' } },
    );
    expect(renderWorkflow(workflow, { payload, subscriber: {} }).steps.map((s) => s.content)).toEqual([
      '12',
      '21',
    ]);
    expect(payload.xs.map((x) => x.n)).toEqual([2, 1]);
  });
});

describe('sampleData', () => {
  const workflow = withSteps(
    { name: 'wait', template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
    {
      name: 'inbox',
      template: {
        type: 'in_app',
        content:
          '{{firstName}} {{amount}} {{orderUrl}} {{createdAt}} {{#each items}}{{title}} {{price}}{{/each}} {{#if vip}}{{/if}} {{customer.email}} {{tags}}',
      },
    },
  );

  it("keeps a template's `__proto__` segment an own key, as in JSON, never the sample object's prototype", () => {
    const hostile = withSteps({
      name: 'inbox',
      template: { type: 'in_app', content: '{{order.__proto__.polluted}} {{__proto__.top}}' },
    });
    const { payload } = sampleData(hostile);
    const order = payload.order as Record<string, unknown>;
    expect(Object.getPrototypeOf(order)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(Object.hasOwn(order, '__proto__')).toBe(true);
    expect(Object.hasOwn(payload, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(order.polluted).toBeUndefined();
  });

  it('is stable and realistic by name and type', () => {
    const a = sampleData(workflow);
    expect(JSON.stringify(a)).toBe(JSON.stringify(sampleData(workflow)));
    expect(a.payload).toMatchObject({
      firstName: 'Ada',
      amount: 129.5,
      orderUrl: 'https://example.com/order/1',
      createdAt: '2024-03-14T09:26:53.000Z',
      vip: true,
      customer: { email: 'ada@example.com' },
    });
    expect(a.payload.items).toEqual([
      { title: 'Sample title 1', price: 129.5 },
      { title: 'Sample title 2', price: 130.5 },
    ]);
    expect(a.subscriber).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      subscriberId: expect.any(String),
    });
  });

  it('gives a digesting workflow three events, the first its own payload, the others with other values', () => {
    const { payload, events } = sampleData(workflow);
    expect(events).toHaveLength(3);
    expect(events?.[0]).toEqual(payload);
    expect(events?.map((e) => [e.firstName, e.amount])).toEqual([
      ['Ada', 129.5],
      ['Grace', 130.5],
      ['Alan', 131.5],
    ]);
  });

  it('gives no events without a digest', () => {
    expect(sampleData(aWorkflow()).events).toBeUndefined();
  });

  it('renders its own workflow without empty values', () => {
    expect(renderWorkflow(workflow, sampleData(workflow)).findings).toEqual([]);
  });
});

describe('sample values by name', () => {
  it('a quantity word anywhere in the name gives a number; other words keep their kind', async () => {
    const { sampleValue } = await import('../../../src/render/sample-values.js');
    expect(
      ['amountDue', 'daysOverdue', 'item_count', 'total', 'invoiceNumber'].map((n) =>
        sampleValue(n, 'String', 0),
      ),
    ).toEqual([129.5, 3, 42, 129.5, 1042]);
    expect(sampleValue('paymentUrl', 'String', 0)).toBe('https://example.com/payment/1');
    expect(sampleValue('dueDate', 'String', 0)).toBe('2024-03-14T09:26:53.000Z');
    expect(sampleValue('agenda', 'String', 0)).toBe('Sample agenda');
    expect(sampleValue('countryName', 'String', 0)).toBe('United Kingdom');
  });
});
