/**
 * Loading a library on first use rather than at start-up, for code that must stay synchronous: derive's fast paths
 * (fast-template.ts, slug-fast.ts) answer for most inputs, so many runs never need Handlebars' parser or the slug
 * libraries, and a definition that the fast path reads needs no `yaml` (definitions/yaml-lib.ts); each costs
 * milliseconds to load on every thread. `require` of an ES module is synchronous on the Node versions `engines`
 * allows (>=20.19). The one `node:*` import of derive (test/unit/architecture.test.ts).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that loads `id` (a package name, or a Node built-in such as `node:crypto`) the first time it is called. */
export function onFirstUse<T>(id: string): () => T {
  let loaded: { module: T } | undefined;
  return () => {
    loaded ??= { module: require(id) as T };
    return loaded.module;
  };
}
