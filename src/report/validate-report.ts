import type { Diagnostic, Severity } from '../diagnostic.js';
import { renderGithub } from './github.js';
import { renderGithubStepSummary } from './github-summary.js';
import { renderHuman } from './human.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderSarif } from './sarif.js';

/** What `wfsync validate` knows about one diagnostic code (for SARIF rules and help links). */
export interface RuleInfo {
  code: string;
  description: string;
  defaultSeverity: Severity;
  helpUri?: string;
}

/** The result of `wfsync validate`, ready to render. Built once; every renderer reads the same object. */
export interface ValidateReport {
  version: 1;
  tool: { name: 'wfsync'; version: string };
  /** Every file checked, sorted (display paths). */
  files: string[];
  /** Already sorted (sortDiagnostics). */
  diagnostics: Diagnostic[];
  /** file → text, for code frames. A file without text gets no frame. */
  sources: ReadonlyMap<string, string>;
  /** Every known code (for SARIF rules). */
  rules: RuleInfo[];
  /** When set and exceeded, the summary says so. */
  maxWarnings?: number;
}

export type ValidateFormat = 'human' | 'json' | 'github' | 'junit' | 'sarif';

export interface RenderOptions {
  /** ANSI colors; only the human format uses them. */
  color: boolean;
  /** Absolute working directory; SARIF states it as the `%SRCROOT%` base. */
  cwd?: string;
}

export type ValidateRenderer = (report: ValidateReport, options: RenderOptions) => string;

/** Renderers by `--format` name. Pure: each returns the whole output, ending with a newline. */
export const validateRenderers: Record<ValidateFormat, ValidateRenderer> = {
  human: renderHuman,
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
  sarif: renderSarif,
};

export const VALIDATE_FORMATS = Object.keys(validateRenderers) as ValidateFormat[];

export function isValidateFormat(name: string): name is ValidateFormat {
  return Object.hasOwn(validateRenderers, name);
}

export { renderGithubStepSummary };
