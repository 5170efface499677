import { createPositions, type Positions } from '../definitions/positions.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { joinPointer, type Span } from '../diagnostic.js';
import { isRecord } from '../json.js';
import { isSecretPropertyName } from '../validate/schema-keywords.js';

/** What `apiKeyEnv` must hold: a variable's name. Anything else there is most likely the key itself. */
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** A URL with credentials in it (`https://user:token@host`). */
const USERINFO_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
/** `apiKey: …` on a line of its own: the fallback when the YAML does not parse. */
const SECRET_LINE = /^(\s*(?:-\s+)?["']?([A-Za-z_-]+)["']?\s*:[ \t]*)(\S.*)$/;

/**
 * The config file's text as code frames may show it: every value that may hold a credential (under a property named
 * like one — `apiKey`, `token`, `password`… —, an `apiKeyEnv` that is not a variable name, a URL with credentials)
 * replaced by `*`, one per character, so lines and columns stay where the diagnostics point. Pure.
 */
export function maskConfigSecrets(text: string, definition: LoadedDefinition | undefined): string {
  const chars = [...text.split('\n').map((line) => maskSecretLine(line))].join('\n').split('');
  if (definition) {
    const positions = createPositions(text);
    for (const pointer of secretPointers(definition.value, ''))
      maskSpan(chars, positions, definition.locate(pointer, 'value'));
  }
  return chars.join('');
}

function maskSecretLine(line: string): string {
  const match = SECRET_LINE.exec(line);
  if (!match || !isSecretPropertyName(match[2] ?? '')) return line;
  return (match[1] ?? '') + (match[3] ?? '').replace(/[^\r]/g, '*');
}

/** Pointers to the values to hide, found by walking the document (iteratively: a config is small but untrusted). */
function secretPointers(root: unknown, base: string): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[root, base]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push([item, joinPointer(pointer, i)]);
      });
      continue;
    }
    if (typeof value === 'string' && USERINFO_URL.test(value)) found.push(pointer);
    if (!isRecord(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const at = joinPointer(pointer, key);
      const wrongEnv = key === 'apiKeyEnv' && !(typeof child === 'string' && ENV_NAME.test(child));
      if (isSecretPropertyName(key) || wrongEnv) found.push(at);
      else stack.push([child, at]);
    }
  }
  return found;
}

/** Stars over a span's characters, line breaks kept. */
function maskSpan(chars: string[], positions: Positions, span: Span): void {
  const start = positions.offsetOf(span.line, span.column);
  const end = positions.offsetOf(span.endLine, span.endColumn);
  for (let i = Math.max(0, start); i < Math.min(end, chars.length); i++) {
    if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = '*';
  }
}
