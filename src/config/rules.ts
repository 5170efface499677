import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { joinPointer } from '../diagnostic.js';
import type { WfsyncConfig } from '../generated/config.js';
import { suggestName } from '../text.js';
import { KNOWN_RULE_CODES } from '../validate/rules/index.js';

/** Checks the schema cannot express: rule codes that do not exist. Pure. */
export function buildConfigDiagnostics(definition: LoadedDefinition): Diagnostic[] {
  const config = definition.value as WfsyncConfig;
  const diagnostics: Diagnostic[] = [];
  const known = new Set<string>(KNOWN_RULE_CODES);
  for (const code of Object.keys(config.rules ?? {})) {
    if (known.has(code)) continue;
    const pointer = joinPointer('/rules', code);
    const suggestion = suggestName(code, KNOWN_RULE_CODES);
    diagnostics.push({
      code: 'config-unknown-rule',
      severity: 'error',
      message: `unknown rule "${code}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; see "wfsync validate --list-rules"`,
      file: definition.file,
      pointer,
      ...definition.locate(pointer, 'key'),
    });
  }
  return diagnostics;
}
