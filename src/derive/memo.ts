/**
 * A bounded memo for derive's per-string work (template parses, slugs): the rules ask for the same strings several
 * times while checking one workflow, rarely after. Oldest entry out first. Pure.
 */
export class BoundedMemo<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly limit: number) {}

  /** The value for `key`, computed by `compute` the first time. */
  get(key: string, compute: (key: string) => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.#entries.size >= this.limit) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** The value kept for `key`, removed from the memo (for a caller that will change it); undefined when none is. */
  take(key: string): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
