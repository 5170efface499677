// Synthetic, valid workflow definitions for benchmarks: ~50 lines each, a mix of channels, filters and digests,
// with trigger variables declared exactly as the service derives them (so validate reports nothing). Every string
// that holds a template carries the file's number, so no per-string cache can reuse work across files.
const KINDS = ['chat', 'email', 'in-app', 'digest'];

export function syntheticDefinition(i, options = {}) {
  const kind = KINDS[i % KINDS.length];
  const name = `${options.prefix ?? 'bench workflow'} ${i}`;
  const identifier = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const head = [
    '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    `name: ${name}`,
    `description: Synthetic ${kind} workflow number ${i} for benchmarks.`,
    'tags: [bench, synthetic]',
    'active: true',
    'critical: false',
    'preferenceSettings: { email: true, sms: false, in_app: true, chat: true, push: false }',
  ];
  const trigger = (variables) => [
    'triggers:',
    '  - type: event',
    `    identifier: ${identifier}`,
    '    variables:',
    ...variables.map((v) => `      - { name: ${v[0]}, type: ${v[1]} }`),
  ];
  if (kind === 'chat') {
    return [
      ...head,
      'steps:',
      '  - name: notify channel',
      '    template:',
      '      type: chat',
      `      content: "Order {{orderId}} for {{customer.name}} shipped via {{carrier}} ({{trackingUrl}}), batch ${i}"`,
      '    filters:',
      '      - value: AND',
      '        children:',
      '          - { on: payload, field: region, value: eu, operator: EQUAL }',
      ...trigger([
        ['orderId', 'String'],
        ['customer.name', 'String'],
        ['carrier', 'String'],
        ['trackingUrl', 'String'],
        ['region', 'String'],
      ]),
      '',
    ].join('\n');
  }
  if (kind === 'email') {
    return [
      ...head,
      'steps:',
      '  - name: send email',
      '    template:',
      '      type: email',
      `      subject: "Your invoice {{invoiceNumber}} is ready (run ${i})"`,
      '      contentType: customHtml',
      '      content: |',
      `        <h1>Hello {{subscriber.firstName}}, notice ${i}</h1>`,
      '        <p>Invoice {{invoiceNumber}} totals {{amount}}.</p>',
      '        {{#each lines}}<li>{{description}}: {{price}}</li>{{/each}}',
      '        {{#if overdue}}<p>This invoice is overdue.</p>{{/if}}',
      ...trigger([
        ['invoiceNumber', 'String'],
        ['amount', 'String'],
        ['lines', 'Array'],
        ['lines.description', 'String'],
        ['lines.price', 'String'],
        ['overdue', 'Boolean'],
      ]),
      '',
    ].join('\n');
  }
  if (kind === 'in-app') {
    return [
      ...head,
      'steps:',
      '  - name: in-app notice',
      '    template:',
      '      type: in_app',
      `      content: "{{actorName}} mentioned you in {{documentTitle}} (${i})"`,
      '      cta:',
      '        type: redirect',
      `        data: { url: "/documents/{{documentId}}?ref=${i}" }`,
      '    filters:',
      '      - value: AND',
      '        children:',
      '          - { on: subscriber, field: age, value: "18", operator: LARGER }',
      ...trigger([
        ['actorName', 'String'],
        ['documentTitle', 'String'],
        ['documentId', 'String'],
      ]),
      '',
    ].join('\n');
  }
  return [
    ...head,
    'steps:',
    '  - name: collect',
    '    template: { type: digest }',
    '    metadata:',
    '      type: backoff',
    '      amount: 10',
    '      unit: minutes',
    '      digestKey: projectId',
    '      backoff: true',
    '      backoffAmount: 5',
    '      backoffUnit: minutes',
    '  - name: summary',
    '    template:',
    '      type: in_app',
    `      content: "{{count}} updates in {{projectName}} since report ${i}"`,
    ...trigger([
      ['projectId', 'String'],
      ['count', 'String'],
      ['projectName', 'String'],
    ]),
    '',
  ].join('\n');
}
