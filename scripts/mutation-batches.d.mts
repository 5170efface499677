export interface MutationTarget {
  glob: string;
  score: number;
}
export interface MutationBatch {
  name: string;
  mutate: string[];
  targets: MutationTarget[];
}
export const MUTATION_BATCHES: MutationBatch[];
