/**
 * The service's Handlebars helpers, in one table: every name the service registers where it renders a step, with the
 * positional argument count each reads, and whether its variable extractor knows the name. derive reads it for what a
 * template reads (a helper's name alone calls the helper: it is not a variable) and for what the service extracts;
 * render registers and checks exactly these (render/helpers.ts, render/template-check.ts). Learned from the service
 * (docs/rendering.md, /work/shared/service-contract.md "variables").
 */

export interface ServiceHelper {
  /** Positional arguments it reads: fewer or more is `render-helper-arity`. */
  min: number;
  max: number;
  /** A block helper: `{{#name}}…{{/name}}` required (inline fails), or optional. */
  block?: 'required' | 'optional';
  /**
   * Registered where the service renders but missing from the helper list its variable extractor reads
   * (`HandlebarHelpersEnum` and the comparisons): the extractor takes `{{name}}` alone for a variable and reads
   * nothing from `{{name a}}`.
   */
  renderOnly?: true;
}

export const SERVICE_HELPERS: ReadonlyMap<string, ServiceHelper> = new Map<string, ServiceHelper>([
  ['json', { min: 1, max: 1, renderOnly: true }],
  ['equals', { min: 2, max: 2, block: 'required' }],
  ['titlecase', { min: 1, max: 1 }],
  ['uppercase', { min: 1, max: 1 }],
  ['lowercase', { min: 1, max: 1 }],
  ['pluralize', { min: 3, max: 3 }],
  ['dateFormat', { min: 2, max: 2 }],
  ['groupBy', { min: 2, max: 2 }],
  ['unique', { min: 2, max: 2 }],
  ['sortBy', { min: 1, max: 2 }],
  ['numberFormat', { min: 1, max: 1 }],
  ['gt', { min: 2, max: 2, block: 'optional' }],
  ['gte', { min: 2, max: 2, block: 'optional' }],
  ['lt', { min: 2, max: 2, block: 'optional' }],
  ['lte', { min: 2, max: 2, block: 'optional' }],
  ['eq', { min: 2, max: 2, block: 'optional' }],
  ['ne', { min: 2, max: 2, block: 'optional' }],
  // Only with the service's translations (enterprise): previewed as its key (see render/render-workflow.ts).
  ['i18n', { min: 1, max: 1, block: 'optional' }],
]);

/** Handlebars' own helpers: not the service's, never unknown. */
export const HANDLEBARS_HELPERS: ReadonlySet<string> = new Set([
  'if',
  'unless',
  'each',
  'with',
  'lookup',
  'log',
  'blockHelperMissing',
  'helperMissing',
]);

/** Handlebars' helpers that also run with no argument, so `{{lookup}}` alone calls one rather than read a variable. */
const HANDLEBARS_WITHOUT_ARGUMENTS = ['lookup', 'log'] as const;

/** What a name alone (`{{uppercase}}`, `{{json}}`) calls when a template runs: a helper, not a variable. */
export const BUILT_IN_HELPERS: ReadonlySet<string> = new Set([
  ...SERVICE_HELPERS.keys(),
  ...HANDLEBARS_WITHOUT_ARGUMENTS,
]);

/** The helpers the service's variable extractor knows: it reads their first argument, and never their name alone. */
export const EXTRACTOR_HELPERS: ReadonlySet<string> = new Set(
  [...SERVICE_HELPERS].filter(([, helper]) => helper.renderOnly !== true).map(([name]) => name),
);
