import { readFileSync } from 'node:fs';
import { type Diagnostic, type Severity, type Span, sortDiagnostics } from '../../../src/diagnostic.js';
import type { ValidateReport } from '../../../src/report/validate-report.js';
import type { RuleInfo } from '../../../src/validate/rules/types.js';

export const FIXTURES = new URL('../../fixtures/report/', import.meta.url);

export function readSource(file: string): string {
  return readFileSync(new URL(`sources/${file}`, FIXTURES), 'utf8');
}

/** The span of the `occurrence`-th `needle` in `text` (single line; columns in UTF-16 code units). */
export function spanOf(text: string, needle: string, occurrence = 1): Span {
  let index = -1;
  for (let i = 0; i < occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`fixture: ${JSON.stringify(needle)} #${occurrence} not found`);
  }
  const before = text.slice(0, index).split('\n');
  const line = before.length;
  const column = (before[before.length - 1] ?? '').length + 1;
  return { line, column, endLine: line, endColumn: column + needle.length };
}

export function diagnostic(
  file: string,
  span: Span,
  fields: { code: string; severity: Severity; message: string; pointer?: string },
): Diagnostic {
  return { ...span, file, pointer: '', ...fields };
}

export const RULES: RuleInfo[] = [
  { code: 'yaml-syntax', description: 'The file is not valid YAML.', defaultSeverity: 'error' },
  {
    code: 'schema-type',
    description: 'A value has the wrong type.',
    defaultSeverity: 'error',
    helpUri: 'https://example.com/wfsync/rules/schema-type',
  },
  { code: 'schema-enum', description: 'A value is not one of the allowed values.', defaultSeverity: 'error' },
  {
    code: 'step-metadata-ignored',
    description: 'Step metadata the service ignores.',
    defaultSeverity: 'warning',
  },
  {
    code: 'variable-undeclared',
    description: 'A template variable the trigger must send.',
    defaultSeverity: 'info',
  },
  { code: 'subscriber-variable', description: 'A subscriber field the step needs.', defaultSeverity: 'info' },
  {
    code: 'identifier-non-ascii',
    description: 'Characters the trigger identifier drops.',
    defaultSeverity: 'warning',
  },
  {
    code: 'identifier-duplicate',
    description: 'Two workflows with one trigger identifier.',
    defaultSeverity: 'error',
  },
];

/**
 * The golden report: 3 files (one clean), errors, warnings and infos, a multi-line span, a tab, wide
 * characters, and messages with `%`, `:`, `,`, a newline, `|`, `&`, `<>`. `variable-name-invalid` is
 * deliberately missing from RULES (SARIF must still give it a rule).
 */
export function buildFixtureReport(): ValidateReport {
  const order = readSource('workflows/order.yaml');
  const welcome = readSource('workflows/welcome.yaml');
  const digest = readSource('workflows/digest.yaml');
  const o = 'workflows/order.yaml';
  const w = 'workflows/welcome.yaml';
  const diagnostics: Diagnostic[] = [
    diagnostic(o, spanOf(order, 'yes'), {
      code: 'schema-type',
      severity: 'error',
      message: 'active must be a boolean, got the string "yes": YAML 1.2 reads yes as text; write true.',
      pointer: '/active',
    }),
    diagnostic(o, spanOf(order, 'emial'), {
      code: 'schema-enum',
      severity: 'error',
      message:
        'type must be one of in_app, email, sms, chat, push, digest, trigger, delay, custom (did you mean "email"?)',
      pointer: '/steps/0/template/type',
    }),
    diagnostic(o, spanOf(order, '{{order.id}}'), {
      code: 'variable-undeclared',
      severity: 'info',
      message: 'Subject uses "order.id": 100% of triggers must send it,\nor the email shows an empty value.',
      pointer: '/steps/0/template/subject',
    }),
    diagnostic(
      o,
      { line: 10, column: 5, endLine: 12, endColumn: 23 },
      {
        code: 'step-metadata-ignored',
        severity: 'warning',
        message: 'metadata only applies to digest and delay steps; the service stores it but never uses it.',
        pointer: '/steps/0/metadata',
      },
    ),
    diagnostic(o, spanOf(order, '\t'), {
      code: 'yaml-syntax',
      severity: 'error',
      message: 'Tabs are not allowed as indentation.',
      pointer: '',
    }),
    diagnostic(o, spanOf(order, 'sms'), {
      code: 'subscriber-variable',
      severity: 'info',
      message: 'SMS steps add "phone" to the trigger\'s subscriber variables.',
      pointer: '/steps/1/template/type',
    }),
    diagnostic(w, spanOf(welcome, 'Bienvenue 🎉 ようこそ'), {
      code: 'identifier-non-ascii',
      severity: 'warning',
      message: 'name slugs to "bienvenue" on both server generations; the emoji and "ようこそ" are dropped.',
      pointer: '/name',
    }),
    diagnostic(w, spanOf(welcome, '{{payload.名前}}'), {
      code: 'variable-name-invalid',
      severity: 'error',
      message:
        'Variable "payload.名前" uses non-ASCII characters: write {{payload.name}} & map it (<名前> | name).',
      pointer: '/steps/0/template/content',
    }),
  ];
  return {
    tool: { name: 'wfsync', version: '1.2.3' },
    files: ['workflows/digest.yaml', o, w],
    diagnostics: sortDiagnostics(diagnostics),
    sources: new Map([
      [o, order],
      [w, welcome],
      ['workflows/digest.yaml', digest],
    ]),
    rules: RULES,
    maxWarnings: 1,
  };
}

/** A small report with just these diagnostics (and their files as the checked files). */
export function reportOf(diagnostics: Diagnostic[], extra: Partial<ValidateReport> = {}): ValidateReport {
  return {
    tool: { name: 'wfsync', version: '0.0.0-test' },
    files: [...new Set(diagnostics.map((d) => d.file))].sort(),
    diagnostics: sortDiagnostics(diagnostics),
    sources: new Map(),
    rules: [],
    ...extra,
  };
}
