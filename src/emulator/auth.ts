import { timingSafeEqual } from 'node:crypto';
import { unauthorized } from './http-error.js';

export type EnvironmentKind = 'development' | 'production';

export interface AuthKeys {
  developmentKey: string;
  productionKeys: readonly string[];
}

/**
 * `Authorization: ApiKey <key>` → which environment the key belongs to, or a 401 with the service's exact message.
 * The scheme is the text before the first space; the key is everything after it.
 */
export function authenticate(header: string | undefined, keys: AuthKeys): EnvironmentKind {
  if (header === undefined || header === '') throw unauthorized('Missing authorization header');
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'ApiKey') throw unauthorized(`Invalid authentication scheme: "${scheme}"`);
  const key = space === -1 ? '' : header.slice(space + 1);
  if (key !== '' && sameKey(key, keys.developmentKey)) return 'development';
  if (key !== '' && keys.productionKeys.some((k) => sameKey(key, k))) return 'production';
  throw unauthorized('API Key not found');
}

/** Refuse creates outside Development, as the service's guard does. */
export function assertCanCreate(environment: EnvironmentKind): void {
  if (environment !== 'development')
    throw unauthorized('This action is only allowed in Development environment');
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
