import type { ArtifactLocation, Log, ReportingDescriptor, Result } from 'sarif';
import type { Diagnostic, Severity } from '../diagnostic.js';
import { compareText } from '../text.js';
import type { RuleInfo } from '../validate/rules/types.js';
import type { SuppressedDiagnostic } from '../validate/suppressions.js';
import { jsonText } from './channel.js';
import { checkedFiles } from './summary.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';
/** Key for our partial fingerprint: rule + file + JSON pointer, so a finding keeps its identity when lines move. */
export const FINGERPRINT_KEY = 'wfsyncPointerHash/v1';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/**
 * `--format sarif`: SARIF 2.1.0 for code scanning (GitHub `upload-sarif`, Azure DevOps, IDE viewers).
 * One run; `tool.driver.rules` lists every known code (plus any unknown code a diagnostic uses, so every
 * `ruleIndex` is valid); artifact URIs are relative to `%SRCROOT%`, which `options.cwd` defines when given.
 * Regions use Diagnostic positions unchanged: both count UTF-16 code units with an exclusive end column.
 */
export function renderSarif(report: ValidateReport, options: RenderOptions): string {
  const rules = [...report.rules];
  const known = new Set(rules.map((r) => r.code));
  const unknown = [...new Set(report.diagnostics.map((d) => d.code).filter((c) => !known.has(c)))];
  for (const code of unknown.sort(compareText)) {
    const severity = report.diagnostics.find((d) => d.code === code)?.severity ?? 'error';
    rules.push({ code, description: code, defaultSeverity: severity });
  }
  const ruleIndex = new Map(rules.map((r, i) => [r.code, i]));
  const files = checkedFiles(report).filter((f) => f !== '');
  const artifactIndex = new Map(files.map((f, i) => [f, i]));
  const occurrences = new Map<string, number>();

  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            rules: rules.map(buildRule),
          },
        },
        ...(options.cwd === undefined
          ? {}
          : { originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(options.cwd) } } }),
        columnKind: 'utf16CodeUnits',
        artifacts: files.map((f) => ({ location: artifactLocation(f) })),
        results: [...report.diagnostics, ...(report.suppressed ?? [])].map((d) => {
          // The definition too for a finding in an included file: the pointer is into it.
          const base = `${d.code}\0${d.file}\0${d.pointer}`;
          const key = d.includedBy === undefined ? base : `${base}\0${d.includedBy}`;
          const occurrence = (occurrences.get(key) ?? 0) + 1;
          occurrences.set(key, occurrence);
          const result = buildResult(d, {
            ruleIndex: ruleIndex.get(d.code) ?? 0,
            artifactIndex: artifactIndex.get(d.file),
            fingerprint: `${hash53(key)}:${occurrence}`,
          });
          const silenced = (d as Partial<SuppressedDiagnostic>).suppressedBy;
          if (silenced) result.suppressions = [{ kind: 'inSource', justification: silenced.reason }];
          return result;
        }),
      },
    ],
  };
  return `${jsonText(log)}\n`;
}

function buildRule(rule: RuleInfo): ReportingDescriptor {
  const text = rule.description === '' ? rule.code : rule.description;
  return {
    id: rule.code,
    shortDescription: { text },
    fullDescription: { text },
    ...(rule.helpUri === undefined ? {} : { helpUri: rule.helpUri }),
    defaultConfiguration: { level: LEVEL[rule.defaultSeverity] },
  };
}

function buildResult(
  d: Diagnostic,
  refs: { ruleIndex: number; artifactIndex: number | undefined; fingerprint: string },
): Result {
  const locations: Result['locations'] =
    d.file === ''
      ? []
      : [
          {
            physicalLocation: {
              artifactLocation: { ...artifactLocation(d.file), index: refs.artifactIndex },
              region: {
                startLine: d.line,
                startColumn: d.column,
                endLine: d.endLine,
                endColumn: d.endColumn,
              },
            },
          },
        ];
  return {
    ruleId: d.code,
    ruleIndex: refs.ruleIndex,
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations,
    partialFingerprints: { [FINGERPRINT_KEY]: refs.fingerprint },
  };
}

/** A relative display path becomes a `%SRCROOT%`-relative URI reference; an absolute one, a file URI. */
function artifactLocation(file: string): ArtifactLocation {
  if (isAbsolutePath(file)) return { uri: fileUri(file) };
  return { uri: encodePath(file), uriBaseId: SRCROOT };
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

function encodePath(path: string): string {
  return path.split(/[\\/]/).map(encodeURIComponent).join('/');
}

/** `file:///…` for an absolute POSIX or Windows path (no node:url here: renderers stay pure). */
export function fileUri(path: string): string {
  const drive = /^([A-Za-z]):[\\/]/.exec(path);
  if (drive) return `file:///${drive[1]}:/${encodePath(path.slice(3))}`;
  return `file://${encodePath(path)}`;
}

/** SARIF requires a base URI to end with `/`. */
function directoryUri(path: string): string {
  const uri = fileUri(path);
  return uri.endsWith('/') ? uri : `${uri}/`;
}

/** cyrb53: a small, well-mixed 53-bit string hash, as 14 hex digits. Stable across runs and platforms. */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
