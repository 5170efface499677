import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import {
  buildDefinitionFromRemote,
  buildDefinitionYaml,
  SCHEMA_MODELINE,
} from '../../../src/pull/convert.js';
import { GROUPS } from '../plan/helpers.js';

const file = (...lines: string[]) => `${[SCHEMA_MODELINE, ...lines].join('\n')}\n`;

describe('buildDefinitionYaml: the file text pull writes', () => {
  it('file references on one line wherever they stand, variants too; the rest in block style', () => {
    const definition = {
      name: 'w',
      steps: [
        {
          name: 's',
          template: { type: 'email', subject: { file: './s.txt' }, content: 'inline' },
          variants: [
            { template: { type: 'sms', content: 'a' } },
            { template: { type: 'push', title: { file: './t.txt' }, content: { file: './c.txt' } } },
          ],
        },
      ],
      triggers: [{ type: 'event', identifier: 'w' }],
    };
    expect(buildDefinitionYaml(definition)).toBe(
      file(
        'name: w',
        'steps:',
        '  - name: s',
        '    template:',
        '      type: email',
        '      subject: { file: ./s.txt }',
        '      content: inline',
        '    variants:',
        '      - template:',
        '          type: sms',
        '          content: a',
        '      - template:',
        '          type: push',
        '          title: { file: ./t.txt }',
        '          content: { file: ./c.txt }',
        'triggers:',
        '  - type: event',
        '    identifier: w',
      ),
    );
  });

  it('repeated values are written out each time, and long lines are not folded', () => {
    const long = 'word '.repeat(40).trim();
    const variables = [{ name: 'a', type: 'String' }];
    const definition = {
      name: 'w',
      description: long,
      steps: [],
      triggers: [{ type: 'event', identifier: 'w', variables, subscriberVariables: variables }],
    };
    expect(buildDefinitionYaml(definition)).toBe(
      file(
        'name: w',
        `description: ${long}`,
        'steps: []',
        'triggers:',
        '  - type: event',
        '    identifier: w',
        '    variables:',
        '      - name: a',
        '        type: String',
        '    subscriberVariables:',
        '      - name: a',
        '        type: String',
      ),
    );
  });
});

describe('buildDefinitionFromRemote: keys a definition needs', () => {
  it('a response without steps or triggers still gives a definition with both', () => {
    const pulled = buildDefinitionFromRemote({ name: 'w' } as unknown as WorkflowResponse, {
      groups: GROUPS,
    });
    expect(pulled).toEqual({ name: 'w', steps: [], triggers: [] });
    expect(buildDefinitionYaml(pulled)).toBe(file('name: w', 'steps: []', 'triggers: []'));
  });

  it('a name the service holds as null stays, so the file says what is missing', () => {
    const pulled = buildDefinitionFromRemote({ name: null } as unknown as WorkflowResponse, {
      groups: GROUPS,
    });
    expect(pulled).toEqual({ name: null, steps: [], triggers: [] });
  });

  it('a group id that is not text is left out', () => {
    const response = { name: 'w', _notificationGroupId: 5 } as unknown as WorkflowResponse;
    expect(buildDefinitionFromRemote(response, { groups: GROUPS })).toEqual({
      name: 'w',
      steps: [],
      triggers: [],
    });
  });

  it('the fields in schema order, whatever order the service sends', () => {
    const response = { triggers: [], steps: [], critical: true, description: 'd', name: 'w' };
    const pulled = buildDefinitionFromRemote(response as unknown as WorkflowResponse, { groups: GROUPS });
    expect(buildDefinitionYaml(pulled)).toBe(
      file('name: w', 'description: d', 'critical: true', 'steps: []', 'triggers: []'),
    );
  });
});
