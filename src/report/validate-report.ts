import type { Diagnostic } from '../diagnostic.js';
import type { RuleInfo } from '../validate/rules/types.js';
import type { SuppressedDiagnostic } from '../validate/suppressions.js';

/** The result of `wfsync validate`, ready to render. Built once; every renderer reads the same object. */
export interface ValidateReport {
  tool: { name: 'wfsync'; version: string };
  /** Every file checked, sorted (display paths). */
  files: string[];
  /** Already sorted (sortDiagnostics). */
  diagnostics: Diagnostic[];
  /**
   * With `--verbose` only: the findings a `wfsync-disable` comment silenced, each with its reason; sorted. They
   * count nowhere (summary, exit code).
   */
  suppressed?: SuppressedDiagnostic[];
  /** file → text, for code frames. A file without text gets no frame. */
  sources: ReadonlyMap<string, string>;
  /** Every known code (for SARIF rules). */
  rules: RuleInfo[];
  /** When set and exceeded, the summary says so. */
  maxWarnings?: number;
}

export type ValidateFormat = 'human' | 'json' | 'github' | 'junit' | 'sarif' | 'codeclimate';

export interface RenderOptions {
  /** ANSI colors; only the human format uses them. */
  color: boolean;
  /** Absolute working directory; SARIF states it as the `%SRCROOT%` base. */
  cwd?: string;
  /**
   * Asked for the mark to put in front of each workflow command the github format makes (see report/channel.ts),
   * only by the renderers that make some (the CLI's is made on first use); none by default.
   */
  commandMark?: () => string;
}

export type ValidateRenderer = (report: ValidateReport, options: RenderOptions) => string;
