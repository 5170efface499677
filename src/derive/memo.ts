/**
 * A bounded memo for derive's per-string work (template parses, slugs): the rules ask for the same strings several
 * times while checking one workflow, rarely after. Oldest entry out first. Pure.
 *
 * The limits are tiny (one template, four names), so the entries are two short arrays searched in order: no hash of
 * every new string, no map entry made and dropped, no iterator to find the oldest (a Map did all three for each
 * file's every template and name).
 */
export class BoundedMemo<V> {
  readonly #keys: string[] = [];
  readonly #values: V[] = [];

  constructor(readonly limit: number) {}

  /** The value for `key`, computed by `compute` the first time. */
  get(key: string, compute: (key: string) => V): V {
    const at = this.#keys.indexOf(key);
    if (at >= 0) return this.#values[at] as V;
    const value = compute(key);
    if (this.#keys.length >= this.limit) {
      this.#keys.shift();
      this.#values.shift();
    }
    this.#keys.push(key);
    this.#values.push(value);
    return value;
  }

  /** The value kept for `key`, removed from the memo (for a caller that will change it); undefined when none is. */
  take(key: string): V | undefined {
    const at = this.#keys.indexOf(key);
    if (at < 0) return undefined;
    const value = this.#values[at];
    this.#keys.splice(at, 1);
    this.#values.splice(at, 1);
    return value;
  }

  clear(): void {
    this.#keys.length = 0;
    this.#values.length = 0;
  }
}
