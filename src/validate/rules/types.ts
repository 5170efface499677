import type { LoadedDefinition } from '../../definitions/types.js';
import type { Severity, Span } from '../../diagnostic.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';

/** A severity from the config's `rules:` map; `off` drops the rule's findings. */
export type SeverityOverride = Severity | 'off';

export interface RuleOptions {
  /** Per-code overrides (`wfsync.config.yaml` `rules:`); unknown codes are the config loader's problem. */
  severities?: Record<string, SeverityOverride>;
  /** Group names `group:NAME` may use; undefined when no config target defines `notificationGroups`. */
  notificationGroups?: readonly string[] | undefined;
  /**
   * The config's `overrides:`, in order: each entry's severities apply after `rules:` to the files its globs match.
   * Which file matches is decided outside (check/rule-overrides.ts): a file's own options have `severities` merged.
   */
  overrides?: ReadonlyArray<{ files: readonly string[]; rules: Record<string, SeverityOverride> }>;
  /** Absolute folder the `overrides` globs are relative to (the config file's). */
  overridesBase?: string;
  /** `--report-unused-disable`: a `wfsync-disable` comment that silences no finding is reported. */
  reportUnusedDisable?: boolean;
}

/**
 * A span inside the text of a file the definition includes (`content: {file: ./emails/x.html}`), as
 * locateInString gives it for an included field: a finding there names that file, not the definition.
 */
export interface IncludedSpan extends Span {
  /** The included file's display path. */
  file: string;
  /** Pointer of the field whose value is the file's text (`/steps/0/template/content`). */
  includedAt: string;
}

export interface ReportOptions {
  /** Which part of the node at the pointer to highlight (default `value`). */
  target?: 'key' | 'value';
  /** An exact span (e.g. a position inside a string), instead of the node's; possibly in an included file. */
  span?: Span | IncludedSpan;
}

export interface RuleContext {
  definition: LoadedDefinition;
  /** The definition's value; it passed the JSON Schema, so the types hold. */
  workflow: WorkflowDefinition;
  options: RuleOptions;
  /** Record one finding of this rule at a JSON pointer into the definition. */
  report(pointer: string, message: string, opts?: ReportOptions): void;
}

/** One named check on one definition. Pure: the same definition and options always report the same findings. */
export interface Rule {
  code: string;
  defaultSeverity: Severity;
  /** One line for `--list-rules`, SARIF and the docs. */
  description: string;
  /**
   * `before-schema`: the rule runs on every parsed definition, before the schema, and must not trust its types.
   * Its findings replace the schema's at the same pointer: one precise message (the service's 400) instead of a
   * generic type error.
   */
  stage?: 'before-schema';
  check(ctx: RuleContext): void;
}

/** What `wfsync validate` knows about one diagnostic code (`--list-rules`, SARIF rules and help links). */
export interface RuleInfo {
  code: string;
  description: string;
  defaultSeverity: Severity;
  helpUri?: string;
}
