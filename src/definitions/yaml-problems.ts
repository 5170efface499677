import type { YAMLError } from 'yaml';
import type { Diagnostic } from '../diagnostic.js';
import type { Positions } from './positions.js';

/** Turns one of yaml's own errors or warnings into a Diagnostic with a stable wfsync code. */
export function yamlProblemDiagnostic(
  problem: YAMLError,
  warning: boolean,
  context: { file: string; positions: Positions },
): Diagnostic {
  const [start, end] = problem.pos;
  const span = context.positions.span(start, end);
  const base = { file: context.file, pointer: '', ...span };
  const message = cleanMessage(problem.message);
  switch (problem.code) {
    case 'TAB_AS_INDENT':
      return {
        ...base,
        code: 'yaml-tab-indent',
        severity: 'error',
        message: 'tabs are not allowed as indentation; use spaces',
      };
    case 'TAG_RESOLVE_FAILED':
      // An unknown tag is a warning to yaml (it falls back to a string) but an error to us: `!!js/function`
      // or `!secret` means the author expects something to happen that never will.
      return {
        ...base,
        code: 'yaml-unknown-tag',
        severity: 'error',
        message: `unsupported tag ${tagName(message)}: remove it (only the standard YAML tags such as !!str are allowed, where they fit)`,
      };
    case 'RESOURCE_EXHAUSTION':
      return { ...base, code: 'yaml-too-deep', severity: 'error', message: 'nesting is too deep to read' };
    default:
      return warning
        ? { ...base, code: 'yaml-warning', severity: 'warning', message: `${message} (${problem.code})` }
        : { ...base, code: 'yaml-syntax', severity: 'error', message: `${message} (${problem.code})` };
  }
}

/** yaml's messages may span lines or end with a period; ours are one sentence without either. */
function cleanMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return oneLine.length > 200 ? `${oneLine.slice(0, 197)}...` : oneLine;
}

/** `Unresolved tag: tag:yaml.org,2002:binary` → `!!binary`; `Could not resolve tag: !e!x` → `!e!x`. */
function tagName(message: string): string {
  const tag = message.replace(/^.*?tag:\s*/i, '');
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}
