import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { buildFileChecks, buildProjectChecks } from '../../../src/validate/index.js';
import {
  applySuppressions,
  parseDirectives,
  type SuppressionInput,
} from '../../../src/validate/suppressions.js';
import { loadYaml, yaml } from '../../helpers/load-yaml.js';

const KNOWN = ['variable-unused', 'template-syntax', 'identifier-duplicate'];
const DEFAULTS: Record<string, Severity> = {
  'suppression-reason-missing': 'error',
  'suppression-unknown-rule': 'error',
  'suppression-unused': 'warning',
};

function finding(code: string, line: number, file = 'w.yaml'): Diagnostic {
  return {
    code,
    severity: 'warning',
    message: `${code} at ${line}`,
    file,
    pointer: '',
    line,
    column: 3,
    endLine: line,
    endColumn: 9,
  };
}

function run(text: string, diagnostics: Diagnostic[], options: Partial<SuppressionInput> = {}) {
  return applySuppressions({
    texts: [{ file: 'w.yaml', text }],
    diagnostics,
    knownCodes: KNOWN,
    severityOf: (code) => DEFAULTS[code],
    reportUnused: false,
    ...options,
  });
}

describe('parseDirectives', () => {
  it('reads the three forms, the rule lists and the reasons, with the comment position', () => {
    const text = [
      'a: 1 # wfsync-disable-next-line variable-unused, template-syntax -- both kept on purpose',
      '# wfsync-disable variable-unused -- legacy block',
      '  #wfsync-enable variable-unused',
      '<!-- wfsync-disable-next-line template-syntax -- a sample of broken syntax -->',
      '{{!-- wfsync-disable template-syntax -- samples --}}',
    ].join('\n');
    expect(parseDirectives(text)).toEqual([
      {
        kind: 'disable-next-line',
        rules: ['variable-unused', 'template-syntax'],
        reason: 'both kept on purpose',
        line: 1,
        column: 8,
        endColumn: 89,
      },
      {
        kind: 'disable',
        rules: ['variable-unused'],
        reason: 'legacy block',
        line: 2,
        column: 3,
        endColumn: 49,
      },
      { kind: 'enable', rules: ['variable-unused'], reason: '', line: 3, column: 4, endColumn: 33 },
      {
        kind: 'disable-next-line',
        rules: ['template-syntax'],
        reason: 'a sample of broken syntax',
        line: 4,
        column: 6,
        endColumn: 79,
      },
      { kind: 'disable', rules: ['template-syntax'], reason: 'samples', line: 5, column: 7, endColumn: 53 },
    ]);
  });

  it('ignores the words outside a comment and look-alike words', () => {
    expect(parseDirectives('content: "say wfsync-disable variable-unused -- x"\n')).toEqual([]);
    expect(parseDirectives('a: b#wfsync-disable variable-unused -- x\n')).toEqual([]);
    expect(parseDirectives('# wfsync-disabled variable-unused -- x\n')).toEqual([]);
    expect(parseDirectives('a: 1\n')).toEqual([]);
  });
});

describe('applySuppressions', () => {
  it('next-line silences that rule on the next line only, keeping the reason', () => {
    const text = 'a: 1\n# wfsync-disable-next-line variable-unused -- kept for old clients\nb: 2\nc: 3\n';
    const result = run(text, [
      finding('variable-unused', 3),
      finding('variable-unused', 4),
      finding('template-syntax', 3),
    ]);
    expect(result.suppressed).toEqual([
      { ...finding('variable-unused', 3), suppressedBy: { line: 2, reason: 'kept for old clients' } },
    ]);
    expect(result.diagnostics).toEqual([finding('variable-unused', 4), finding('template-syntax', 3)]);
  });

  it('disable … enable silences the lines between; without enable, to the end of the file', () => {
    const text =
      'a: 1\n# wfsync-disable variable-unused -- block\nb: 2\nc: 3\n# wfsync-enable variable-unused\nd: 4\n# wfsync-disable template-syntax -- rest\ne: 5\nf: 6\n';
    const result = run(text, [
      finding('variable-unused', 1),
      finding('variable-unused', 3),
      finding('variable-unused', 4),
      finding('variable-unused', 6),
      finding('template-syntax', 9),
    ]);
    expect(result.suppressed.map((d) => [d.code, d.line])).toEqual([
      ['variable-unused', 3],
      ['variable-unused', 4],
      ['template-syntax', 9],
    ]);
    expect(result.diagnostics.map((d) => d.line)).toEqual([1, 6]);
  });

  it('a directive without a reason silences nothing and is itself a finding', () => {
    const text = '# wfsync-disable-next-line variable-unused\nb: 2\n';
    const result = run(text, [finding('variable-unused', 2)]);
    expect(result.suppressed).toEqual([]);
    expect(result.diagnostics).toEqual([
      finding('variable-unused', 2),
      {
        code: 'suppression-reason-missing',
        severity: 'error',
        message:
          'wfsync-disable-next-line needs a reason: "# wfsync-disable-next-line variable-unused -- <why>"; it silences nothing without one',
        file: 'w.yaml',
        pointer: '',
        line: 1,
        column: 3,
        endLine: 1,
        endColumn: 43,
      },
    ]);
  });

  it('an unknown rule in a comment is a finding with a suggestion; the known ones still apply', () => {
    const text = '# wfsync-disable-next-line variable-unusd, template-syntax -- why\nb: 2\n';
    const result = run(text, [finding('template-syntax', 2)]);
    expect(result.suppressed.map((d) => d.code)).toEqual(['template-syntax']);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      [
        'suppression-unknown-rule',
        'error',
        'unknown rule "variable-unusd" in wfsync-disable-next-line (did you mean "variable-unused"?); see "wfsync validate --list-rules"',
      ],
    ]);
    expect(run('# wfsync-disable -- no rule named\n', []).diagnostics.map((d) => d.code)).toEqual([
      'suppression-unknown-rule',
    ]);
  });

  it('an unused directive is reported only when asked, and never for a rule whose findings come later', () => {
    const text =
      '# wfsync-disable-next-line variable-unused -- stale\nb: 2\n# wfsync-disable-next-line identifier-duplicate -- shared\nc: 3\n';
    expect(run(text, []).diagnostics).toEqual([]);
    const reported = run(text, [], { reportUnused: true, laterCodes: ['identifier-duplicate'] }).diagnostics;
    expect(reported.map((d) => [d.code, d.severity, d.line, d.message])).toEqual([
      [
        'suppression-unused',
        'warning',
        1,
        '"wfsync-disable-next-line variable-unused" silences no finding; remove it',
      ],
    ]);
  });

  it('a directive finding turned off is not reported', () => {
    const text = '# wfsync-disable-next-line variable-unused\nb: 2\n';
    const result = run(text, [], { severityOf: () => undefined });
    expect(result.diagnostics).toEqual([]);
  });

  it('a file without directives keeps its findings as they are', () => {
    const diagnostics = [finding('variable-unused', 2), finding('variable-unused', 1, 'other.html')];
    expect(run('a: 1\n', diagnostics)).toEqual({ diagnostics, suppressed: [] });
  });
});

const WORKFLOW = yaml`
  name: order
  steps:
    - name: in app
      template:
        type: in_app
        content: Hello
  triggers:
    - type: event
      identifier: order
      variables:
        # wfsync-disable-next-line variable-unused -- kept for the mobile app's older clients
        - { name: legacyField, type: String }
        - { name: other, type: String }
`;

describe('buildFileChecks', () => {
  it('applies the comments of a definition to the real rules, and reports unused ones with reportUnusedDisable', () => {
    const definition = loadYaml(WORKFLOW, 'workflows/order.yaml');
    const checks = buildFileChecks({ definitions: [definition], options: {} });
    expect(checks.suppressed.map((d) => [d.code, d.line, d.suppressedBy])).toEqual([
      ['variable-unused', 12, { line: 11, reason: "kept for the mobile app's older clients" }],
    ]);
    expect(checks.diagnostics.map((d) => [d.code, d.line])).toEqual([['variable-unused', 13]]);
    // Turned off, the rule finds nothing, so the comment silences nothing: unused.
    const off = buildFileChecks({
      definitions: [definition],
      options: { severities: { 'variable-unused': 'off' }, reportUnusedDisable: true },
    });
    expect(off.diagnostics.map((d) => [d.code, d.line])).toEqual([['suppression-unused', 11]]);
  });

  it('applies an included file’s comments to the findings in it', () => {
    const definition = loadYaml(WORKFLOW, 'workflows/order.yaml');
    const include = {
      pointer: '/steps/0/template/content',
      path: './x.html',
      absolute: '/p/workflows/x.html',
      file: 'workflows/x.html',
      text: '<!-- wfsync-disable-next-line template-syntax -- sample -->\n{{#if}}\n{{!-- wfsync-disable-next-line template-syntax -- stale --}}\nplain',
      style: { bom: false, crlf: false },
    };
    const withInclude = Object.assign(definition, { includes: [include] });
    const found = finding('template-syntax', 2, 'workflows/x.html');
    const result = applySuppressions({
      texts: [
        withInclude,
        ...withInclude.includes.map((i) => ({ ...i, includedBy: 'workflows/order.yaml' })),
      ],
      diagnostics: [found],
      knownCodes: KNOWN,
      severityOf: () => 'error',
      reportUnused: true,
    });
    expect(result.suppressed).toEqual([{ ...found, suppressedBy: { line: 1, reason: 'sample' } }]);
    // The definition's own comment silenced nothing here (no finding of its own was given).
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.includedBy])).toEqual([
      ['suppression-unused', 'workflows/order.yaml', 11, undefined],
      ['suppression-unused', 'workflows/x.html', 3, 'workflows/order.yaml'],
    ]);
  });
});

describe('buildProjectChecks', () => {
  it('silences identifier-duplicate in the file whose comment names it', () => {
    const a = loadYaml(WORKFLOW, 'workflows/a.yaml');
    const b = loadYaml(
      WORKFLOW.replace(
        /( *)identifier: order/,
        '$1# wfsync-disable-next-line identifier-duplicate -- a copy\n$1identifier: order',
      ),
      'workflows/b.yaml',
    );
    const checks = buildProjectChecks({ definitions: [a, b], options: {} });
    expect(checks.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['identifier-duplicate', 'workflows/a.yaml'],
    ]);
    expect(checks.suppressed.map((d) => [d.code, d.file, d.suppressedBy.reason])).toEqual([
      ['identifier-duplicate', 'workflows/b.yaml', 'a copy'],
    ]);
  });
});
