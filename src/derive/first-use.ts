/**
 * Loading a pure library on first use rather than at start-up: derive's fast paths (fast-template.ts,
 * slug-fast.ts) answer for most inputs, so many runs never need Handlebars' parser or the slug libraries, and each
 * costs milliseconds to load on every thread. `require` of an ES module is synchronous on the Node versions `engines`
 * allows (>=20.19). The one `node:*` import of derive (test/unit/architecture.test.ts).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that loads `id` (resolved from src/derive) the first time it is called. */
export function onFirstUse<T>(id: string): () => T {
  let loaded: { module: T } | undefined;
  return () => {
    loaded ??= { module: require(id) as T };
    return loaded.module;
  };
}
