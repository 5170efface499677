/**
 * A memo of one entry, for what the rules derive from the workflow (or step) they are checking: the rules check one
 * workflow at a time, so the last key is the only one asked for again. A WeakMap would do the same, but its entries
 * outlive every young-generation GC until a full one, so each workflow's derivations were copied and promoted: at
 * 10,000 files the heap grew by ~50 MB and scavenges cost ~125 ms. Pure as long as `compute` is, and the rules never
 * change a definition.
 */
export function memoizeLast<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  let lastKey: K | undefined;
  let lastValue: V | undefined;
  return (key) => {
    if (key !== lastKey) {
      lastValue = compute(key);
      lastKey = key;
    }
    return lastValue as V;
  };
}
