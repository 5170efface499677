/**
 * The Handlebars instance the renderer compiles with, loaded on first use (validate imports this layer, and most
 * runs never render).
 */
import { onFirstUse } from '../derive/first-use.js';

const handlebars = onFirstUse<typeof import('handlebars')>('handlebars');

let instance: typeof import('handlebars') | undefined;

/** An isolated Handlebars environment (helpers registered here do not leak into the global one). */
export function renderEngine(): typeof import('handlebars') {
  instance ??= handlebars().create();
  return instance;
}
