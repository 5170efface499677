import type { MutationTarget } from './mutation-batches.mjs';

export interface MutantLike {
  status: string;
}
export interface Tally {
  detected: number;
  valid: number;
  survived: number;
  noCoverage: number;
}
export interface ReportLike {
  files: Record<string, { mutants: MutantLike[] }>;
}
export function tally(mutants: MutantLike[]): Tally;
export function score(t: Tally): number;
export function checkTargets(
  report: ReportLike,
  targets: MutationTarget[],
  cwd?: string,
): (MutationTarget & { files: number; reached: number; met: boolean })[];
