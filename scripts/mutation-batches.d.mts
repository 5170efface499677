export interface MutationTarget {
  glob: string;
  score: number;
}
export interface MutationBatch {
  name: string;
  mutate: string[];
  /** The unit tests the batch runs (globs). */
  testFiles: string[];
  targets: MutationTarget[];
}
export const MUTATION_BATCHES: MutationBatch[];
