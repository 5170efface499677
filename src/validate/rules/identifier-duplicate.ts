import type { LoadedDefinition } from '../../definitions/types.js';
import { isRecord } from '../../json.js';
import type { RuleInfo } from './types.js';
import { listWords } from './walk.js';

/** Where a workflow's identifier is declared. */
export const IDENTIFIER_POINTER = '/triggers/0/identifier';

export const IDENTIFIER_DUPLICATE: RuleInfo = {
  code: 'identifier-duplicate',
  defaultSeverity: 'error',
  description: 'each triggers[0].identifier must be used by one definition file only',
};

export interface ProjectFinding {
  definition: LoadedDefinition;
  pointer: string;
  message: string;
}

/**
 * The identifier this rule compares: `triggers[0].identifier` of any parsed value, valid or not. Also how validate's
 * per-file outcomes pick the files worth a second look (check/check-definitions.ts).
 */
export function identifierOf(value: unknown): string | undefined {
  if (!isRecord(value) || !Array.isArray(value.triggers)) return undefined;
  const trigger: unknown = value.triggers[0];
  return isRecord(trigger) && typeof trigger.identifier === 'string' ? trigger.identifier : undefined;
}

/**
 * The same identifier in two or more files, reported on each occurrence with the others' positions. Runs on every
 * parsed document, valid or not: the conflict matters whatever else is wrong with the files.
 */
export function findDuplicateIdentifiers(all: readonly LoadedDefinition[]): ProjectFinding[] {
  const byIdentifier = new Map<string, LoadedDefinition[]>();
  for (const definition of all) {
    const identifier = identifierOf(definition.value);
    if (identifier === undefined) continue;
    byIdentifier.set(identifier, [...(byIdentifier.get(identifier) ?? []), definition]);
  }
  const findings: ProjectFinding[] = [];
  for (const [identifier, group] of byIdentifier) {
    if (group.length < 2) continue;
    for (const definition of group) {
      const others = group
        .filter((other) => other !== definition)
        .map((other) => `${other.file}:${other.locate(IDENTIFIER_POINTER).line}`);
      findings.push({
        definition,
        pointer: IDENTIFIER_POINTER,
        message:
          `identifier \`${identifier}\` is also used by ${listWords(others, 'and')}; the service cannot create ` +
          `a second workflow under it (older servers silently add a random suffix, newer ones answer 400), so ` +
          `give each workflow its own name and identifier.`,
      });
    }
  }
  return findings;
}
