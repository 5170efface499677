/**
 * The trigger identifier the service derives from a workflow's name. The two server generations differ on camelCase
 * and snake_case names; lower-case words separated by spaces slug the same on both.
 */
import decamelizingSlugify from '@sindresorhus/slugify';
import slugify from 'slugify';

/** The older server: npm `slugify` with `{lower: true, strict: true}` (`orderShipped` → `ordershipped`). */
export function slugifyV1(name: string): string {
  return slugify(name, { lower: true, strict: true });
}

/**
 * The newer server: a vendored copy of `@sindresorhus/slugify` with its defaults, which decamelize
 * (`orderShipped` → `order-shipped`, `snake_case` → `snake-case`).
 */
export function slugifyV2(name: string): string {
  return decamelizingSlugify(name);
}
