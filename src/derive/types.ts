/**
 * What the service derives from a workflow body, modelled so validate, the emulator and plan agree.
 * Everything in src/derive is pure (no node:*, no clock, no randomness).
 */

export type VariableType = 'String' | 'Array' | 'Boolean';

/** One variable use found in a Handlebars string. `name` is the full dotted path (`items.title`). */
export interface VariableUsage {
  name: string;
  type: VariableType;
  /** 0-based offset of the use inside the scanned string (start of the path expression). */
  offset: number;
  /**
   * Present when the use is read only under conditions (inside `{{#if}}`/`{{#unless}}` blocks, or as the subject of
   * one): per enclosing condition, outermost first, the path (segments from the root) that is truthy wherever the use
   * is read, or null when the condition is anything else (a falsy value, a helper's answer, the subject itself, whose
   * absence is an answer). A template renders without such a use, so a payload may leave it out.
   */
  conditions?: Array<readonly string[] | null>;
}

export interface TemplateScan {
  /** Every use in source order, system variables included, not de-duplicated. */
  usages: VariableUsage[];
  /** Present when Handlebars cannot parse the string (the service answers 400 `Failed to extract variables`). */
  error?: {
    message: string;
    /** 0-based offset in the string */
    offset: number;
    /** Refused unparsed: nested deeper than MAX_DEFINITION_DEPTH (what the service makes of it is unknown). */
    tooDeep?: true;
  };
}

/** A string of a step the service scans for variables, with its JSON pointer relative to the step. */
export interface TextSource {
  pointer: string;
  text: string;
}

/** A variable the service puts on the trigger, with where it first came from (pointer relative to the body). */
export interface DerivedVariable {
  name: string;
  type: VariableType;
  pointer: string;
}

export interface ReservedVariables {
  type: 'tenant' | 'actor';
  variables: Array<{ name: string; type: 'String' }>;
}

export interface DerivedTrigger {
  /** Slug of `name` as the older server makes it (slugify `{lower, strict}`): `orderShipped` → `ordershipped`. */
  identifierV1: string;
  /** Slug of `name` as the newer server makes it (decamelized): `orderShipped` → `order-shipped`. */
  identifierV2: string;
  /** Trigger variables: system prefixes dropped, duplicates keep the first position. */
  variables: DerivedVariable[];
  reservedVariables: ReservedVariables[];
  subscriberVariables: Array<{ name: 'phone' | 'email' }>;
  /** Handlebars parse failures; any one of them makes the service answer 400. */
  errors: Array<{ pointer: string; message: string; offset: number }>;
}

/** The minimal shape derive reads: works on definitions, request bodies and responses alike. */
export interface DerivableWorkflow {
  name?: unknown;
  steps?: unknown;
}

/** How deriveTrigger reads the templates. */
export interface DeriveOptions {
  /**
   * `handlebars` (default): what each template really reads, by Handlebars' scoping rules (scanTemplate); variables
   * step by step, each name at its first use with that use's type.
   * `server`: what the service's own extractor reports, quirks included (scanTemplateAsServer): all template
   * variables of all steps before any filter/delay/digest variable, each name at its first position but with the
   * type (and pointer) of its LAST use, reserved variables in order of first use.
   */
  extraction?: 'handlebars' | 'server';
}

// Handlebars' AST, as parse-template.ts and fast-template.ts build it and the walkers read it.

export interface HbsPosition {
  /** 1-based line. */
  line: number;
  /** 0-based column, in UTF-16 code units. */
  column: number;
}

/**
 * Any node of Handlebars' AST, every field optional: the walkers read foreign data and check what they use.
 * Statements: ContentStatement, CommentStatement, MustacheStatement, BlockStatement, PartialStatement,
 * PartialBlockStatement, Decorator, DecoratorBlock. Expressions: PathExpression, SubExpression and the literals.
 */
export interface HbsNode {
  type?: unknown;
  loc?: { start?: HbsPosition };
  /** Statements and sub-expressions: the helper (or the variable of a plain `{{x}}`). */
  path?: HbsNode;
  params?: HbsNode[];
  hash?: { pairs?: Array<{ key?: unknown; value?: HbsNode; loc?: { start?: HbsPosition } }> };
  program?: HbsProgram;
  inverse?: HbsProgram;
  /** Partials: the partial's name. */
  name?: HbsNode;
  /** PathExpression: `@name`. */
  data?: unknown;
  /** PathExpression: how many `../` lead it. */
  depth?: unknown;
  /** PathExpression: the segments, `this` and `./` removed, brackets unwrapped. */
  parts?: unknown;
  /** PathExpression: the source text; literals: the value (a number stays a number). */
  original?: unknown;
}

export interface HbsProgram {
  type?: unknown;
  body?: HbsNode[];
  blockParams?: unknown;
}
