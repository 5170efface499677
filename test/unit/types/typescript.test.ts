import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { WorkflowTypes } from '../../../src/types/payload-shape.js';
import { renderTypeScript } from '../../../src/types/typescript.js';

function aWorkflowType(identifier: string, overrides: Partial<WorkflowTypes> = {}): WorkflowTypes {
  return {
    identifier,
    name: identifier,
    file: `workflows/${identifier}.yaml`,
    payload: { kind: 'object', fields: [{ name: 'orderId', required: true, type: { kind: 'string' } }] },
    subscriberFields: [],
    ...overrides,
  };
}

/** Parses `text` as a TypeScript file: its syntax errors, and its top-level declarations by name. */
function parse(text: string) {
  const file = ts.createSourceFile('types.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  const declarations = new Map<string, ts.Statement>();
  for (const statement of file.statements) {
    const name = (statement as ts.InterfaceDeclaration | ts.TypeAliasDeclaration).name;
    if (name !== undefined) declarations.set(name.text, statement);
  }
  return { file, diagnostics, declarations };
}

/** The property names of an interface, as the compiler reads them (string literals unescaped). */
function memberNames(statement: ts.Statement | undefined): string[] {
  if (statement === undefined || !ts.isInterfaceDeclaration(statement)) return [];
  return statement.members.map((member) => {
    const name = member.name;
    return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : '<other>';
  });
}

describe('renderTypeScript', () => {
  it('writes WorkflowPayloads and WorkflowIdentifier, sorted by identifier, with the payload types', () => {
    const text = renderTypeScript([
      aWorkflowType('order-shipped', {
        payload: {
          kind: 'object',
          fields: [
            { name: 'orderId', required: true, type: { kind: 'string' } },
            { name: 'gift', required: false, type: { kind: 'boolean' } },
            {
              name: 'items',
              required: true,
              type: {
                kind: 'array',
                element: {
                  kind: 'object',
                  fields: [{ name: 'sku', required: true, type: { kind: 'string' } }],
                },
              },
            },
            { name: 'tags', required: false, type: { kind: 'array', element: { kind: 'string' } } },
          ],
        },
        subscriberFields: ['email', 'firstName'],
      }),
      aWorkflowType('account-closed', { payload: { kind: 'object', fields: [] } }),
    ]);
    const { diagnostics, declarations } = parse(text);
    expect(diagnostics).toEqual([]);
    expect([...declarations.keys()]).toEqual([
      'WorkflowPayloads',
      'WorkflowIdentifier',
      'WorkflowSubscriberFields',
      'TriggerWorkflow',
    ]);
    expect(memberNames(declarations.get('WorkflowPayloads'))).toEqual(['account-closed', 'order-shipped']);
    expect(text).toContain(
      [
        '  "order-shipped": {',
        '    orderId: string;',
        '    gift?: boolean;',
        '    items: Array<{',
        '      sku: string;',
        '    }>;',
        '    tags?: string[];',
        '  };',
      ].join('\n'),
    );
    expect(text).toContain('  "account-closed": Record<string, never>;');
    expect(text).toContain('  "order-shipped": "email" | "firstName";');
    expect(text).toContain('  "account-closed": never;');
  });

  it('is the same text for the same workflows in any order', () => {
    const a = aWorkflowType('a');
    const b = aWorkflowType('b');
    expect(renderTypeScript([b, a])).toBe(renderTypeScript([a, b]));
  });

  it('hostile identifiers, names, descriptions and fields stay data: string literals and comments, never code', () => {
    const hostile = [
      'x"; export const pwned = 1; "',
      "x'];\nexport declare const pwned: 1; //",
      'end */ export const pwned = 1; /*',
      '\\"; pwned; "\u2028\u2029\u0000\u001b[31m',
      '__proto__',
      ['`$', '{pwned}`'].join(''),
    ];
    const text = renderTypeScript(
      hostile.map((identifier) =>
        aWorkflowType(identifier, {
          name: identifier,
          description: `*/ ${identifier} /*`,
          file: `workflows/*/${identifier}.yaml`,
          payload: {
            kind: 'object',
            fields: hostile.map((name) => ({ name, required: true, type: { kind: 'string' } })),
          },
          subscriberFields: hostile,
        }),
      ),
    );
    const { diagnostics, declarations, file } = parse(text);
    expect(diagnostics).toEqual([]);
    // Exactly the four declarations, nothing injected beside them, and no runtime code at all.
    expect(file.statements).toHaveLength(4);
    expect([...declarations.keys()]).toEqual([
      'WorkflowPayloads',
      'WorkflowIdentifier',
      'WorkflowSubscriberFields',
      'TriggerWorkflow',
    ]);
    expect(memberNames(declarations.get('WorkflowPayloads'))).toEqual([...hostile].sort());
    expect(memberNames(declarations.get('WorkflowSubscriberFields'))).toEqual([...hostile].sort());
    // No raw control, line-separator or escape character reaches the file.
    const raw = [...text].filter((ch) => (ch < ' ' && ch !== '\n') || ch === '\u2028' || ch === '\u2029');
    expect(raw).toEqual([]);
  });
});
