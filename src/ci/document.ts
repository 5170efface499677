/**
 * What the relay reads of a plan or sync document wfsync wrote (`plan --out`, `sync --out`): its verdict
 * (`exitCode`, `needsPerson`, `meaning`, schemaVersion 3), the class each workflow that needs a person has there (a
 * plan's action, a sync's outcome), and the target's name. Read loosely: a job whose wfsync failed before writing the
 * document, or an older wfsync's document, still gets a verdict from the exit code alone. Pure.
 */
import { isRecord } from '../json.js';
import { safeName } from './verdict.js';

export interface DocumentVerdict {
  exitCode: number;
  needsPerson: string[];
  meaning: string;
}

/** The document's own verdict, or undefined (no document, or one from before schemaVersion 3). */
export function documentVerdict(document: unknown): DocumentVerdict | undefined {
  if (!isRecord(document)) return undefined;
  const { exitCode, needsPerson, meaning } = document;
  if (typeof exitCode !== 'number' || !Number.isInteger(exitCode)) return undefined;
  if (!Array.isArray(needsPerson) || typeof meaning !== 'string') return undefined;
  return { exitCode, needsPerson: needsPerson.map(String), meaning };
}

/** `welcome (drifted), billing (conflict)`: the workflows the document says need a person, or '' when none. */
export function needingAPerson(document: unknown): string {
  const verdict = documentVerdict(document);
  if (verdict === undefined || !isRecord(document)) return '';
  const rows = Array.isArray(document.outcomes) ? document.outcomes : document.items;
  const classes = new Map(
    (Array.isArray(rows) ? rows : [])
      .filter(isRecord)
      .map((row) => [String(row.identifier), String(row.outcome ?? row.action)] as const),
  );
  return verdict.needsPerson
    .map((identifier) => {
      const named = classes.get(identifier);
      return named === undefined ? safeName(identifier) : `${safeName(identifier)} (${safeName(named)})`;
    })
    .join(', ');
}

/** The target the document names (a sync result's is in the plan it carried out). */
export function documentTarget(document: unknown): string | undefined {
  if (!isRecord(document)) return undefined;
  const plan = isRecord(document.plan) ? document.plan : document;
  const target = isRecord(plan.target) ? plan.target.name : undefined;
  return typeof target === 'string' ? target : undefined;
}
