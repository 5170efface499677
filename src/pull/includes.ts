/**
 * `wfsync pull` and text kept in files (`content: {file: ./order-shipped.email.html}`): where the definition refers
 * to a file for a field, the service's text goes into that file and the reference stays, so the pull request shows
 * the change in the HTML file; with `--split-content <n>`, text longer than n lines goes to a new file next to the
 * definition. Decides only: which fields keep or get a reference, and which files get which text. Pure.
 */
import { fitsInFile, INCLUDE_FIELDS, replaceIncludes } from '../definitions/include-references.js';
import { joinPointer, splitPointer } from '../diagnostic.js';
import { isRecord, type Json } from '../json.js';
import { valueAt } from '../validate/rules/walk.js';

export interface ExistingInclude {
  pointer: string;
  /** As written in the definition (`./order-shipped.email.html`). */
  path: string;
  /** What the file holds now, as loaded. */
  text: string;
  /** Another definition refers to the same file: its text must not change under it. */
  shared: boolean;
}

export interface SplitContent {
  /** Text of more lines than this goes to a file of its own. */
  maxLines: number;
  /** The definition file's name without its extension: new files are `<base>.<step>[.subject|.title].<ext>`. */
  baseName: string;
  /** Whether a path (relative to the definition's directory, as it would be written) is already a file. */
  taken(path: string): boolean;
}

export interface IncludeWrite {
  pointer: string;
  /** Relative to the definition's directory, as written in the reference. */
  path: string;
  text: string;
}

export interface PulledIncludes {
  /** The pulled definition with a reference at each field whose text is kept in a file. */
  definition: Json;
  /** Files whose text must change (or that must be created). */
  writes: IncludeWrite[];
  /** Every field kept in a file, with its text: what the definition resolves to once the files are written. */
  kept: Array<{ pointer: string; text: string }>;
  /** References given up (the service's value is written inline instead), each with why. */
  inlined: Array<{ pointer: string; path: string; reason: string }>;
}

export interface PulledIncludesInput {
  /** The service's workflow as a definition (texts inline). */
  pulled: Json;
  /** The definition the file holds now (references resolved), when there is one: to tell steps apart. */
  existing?: unknown;
  includes: readonly ExistingInclude[];
  split?: SplitContent;
}

export function buildPulledIncludes(input: PulledIncludesInput): PulledIncludes {
  const { pulled, existing } = input;
  const replacements: Array<{ pointer: string; value: unknown }> = [];
  const result: PulledIncludes = { definition: pulled, writes: [], kept: [], inlined: [] };
  /** Text each file gets in this pull (one file may serve several fields only with one text). */
  const assigned = new Map<string, string>();
  const referenced = new Set<string>();
  for (const include of input.includes) {
    referenced.add(include.pointer);
    const value = valueAt(pulled, include.pointer);
    if (value === undefined) continue; // the service has no such field: the merge drops the reference
    const key = normalize(include.path);
    if (typeof value !== 'string') {
      result.inlined.push({
        pointer: include.pointer,
        path: include.path,
        reason: 'the service holds blocks there, not text',
      });
      continue;
    }
    const reason = inlineReason({ include, value, existing, pulled, assignedText: assigned.get(key) });
    if (reason !== undefined) {
      result.inlined.push({ pointer: include.pointer, path: include.path, reason });
      continue;
    }
    replacements.push({ pointer: include.pointer, value: { file: include.path } });
    result.kept.push({ pointer: include.pointer, text: value });
    if (!assigned.has(key) && value !== include.text) {
      result.writes.push({ pointer: include.pointer, path: include.path, text: value });
    }
    assigned.set(key, value);
  }
  if (input.split) {
    for (const field of templateTexts(pulled)) {
      if (referenced.has(field.pointer) || lineCount(field.text) <= input.split.maxLines) continue;
      if (!fitsInFile(field.text)) continue;
      const path = freshPath(field, input.split, assigned);
      assigned.set(normalize(path), field.text);
      replacements.push({ pointer: field.pointer, value: { file: path } });
      result.kept.push({ pointer: field.pointer, text: field.text });
      result.writes.push({ pointer: field.pointer, path, text: field.text });
    }
  }
  result.definition = replaceIncludes(pulled, replacements) as Json;
  return result;
}

/** Why a reference cannot take the service's value, or undefined when it can. */
function inlineReason(input: {
  include: ExistingInclude;
  value: string;
  existing: unknown;
  pulled: Json;
  assignedText: string | undefined;
}): string | undefined {
  const { include, value } = input;
  if (!fitsInFile(value))
    return 'the text holds carriage returns or a byte order mark, which a file would not keep';
  if (!sameStep(input.existing, input.pulled, include.pointer)) {
    return 'the step in that position is another one on the service';
  }
  if (include.shared && value !== include.text) return `${include.path} is also used by another definition`;
  if ((input.assignedText ?? value) !== value)
    return `${include.path} also holds another field, with other text`;
  return undefined;
}

interface TemplateText {
  pointer: string;
  text: string;
  /** `welcome-email`, `welcome-email.variant-1`: the step's part of a new file's name. */
  stepName: string;
  field: (typeof INCLUDE_FIELDS)[number];
  type: unknown;
}

/** Every string content, subject and title of the steps and variants, step by step. */
function templateTexts(definition: Json): TemplateText[] {
  const texts: TemplateText[] = [];
  const visit = (steps: unknown, at: string, prefix: string): void => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step: unknown, i) => {
      if (!isRecord(step)) return;
      const pointer = joinPointer(at, i);
      const own = slug(step.name) || `${prefix ? 'variant' : 'step'}-${i + 1}`;
      const stepName = prefix ? `${prefix}.${own}` : own;
      const template = step.template;
      if (isRecord(template)) {
        for (const field of INCLUDE_FIELDS) {
          const text = template[field];
          if (typeof text !== 'string') continue;
          texts.push({
            pointer: joinPointer(pointer, 'template', field),
            text,
            stepName,
            field,
            type: template.type,
          });
        }
      }
      visit(step.variants, joinPointer(pointer, 'variants'), stepName);
    });
  };
  visit(definition.steps, '/steps', '');
  return texts;
}

/** `./order-shipped.shipping-email.html`, `./order-shipped.shipping-email.subject.txt`; `-2`… when taken. */
function freshPath(field: TemplateText, split: SplitContent, assigned: ReadonlyMap<string, string>): string {
  const extension = field.field === 'content' && field.type === 'email' ? 'html' : 'txt';
  const stem = `./${split.baseName}.${field.stepName}${field.field === 'content' ? '' : `.${field.field}`}`;
  for (let n = 1; ; n++) {
    const path = `${stem}${n === 1 ? '' : `-${n}`}.${extension}`;
    if (!assigned.has(normalize(path)) && !split.taken(path)) return path;
  }
}

/** The same step on both sides: same type, and the same name where both have one. */
function sameStep(existing: unknown, pulled: Json, pointer: string): boolean {
  if (existing === undefined) return true;
  const segments = splitPointer(pointer);
  const stepPointer = joinPointer('', ...segments.slice(0, segments.lastIndexOf('template')));
  const before = valueAt(existing, stepPointer);
  const after = valueAt(pulled, stepPointer);
  if (!isRecord(before) || !isRecord(after)) return false;
  const type = (step: Json) => (isRecord(step.template) ? step.template.type : undefined);
  const names = [before.name, after.name];
  return type(before) === type(after) && (names.some((n) => typeof n !== 'string') || names[0] === names[1]);
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

function slug(name: unknown): string {
  if (typeof name !== 'string') return '';
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-|-$/g, ''); // runs are one dash already
}

/** `./a/../b.html` and `b.html` are one file. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
