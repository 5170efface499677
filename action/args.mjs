/**
 * The action's `args` input as an argv array, split the way a reader of the input expects (`--only "order-*"`) but
 * with no shell anywhere: single quotes, double quotes and backslashes group and escape characters, and nothing is
 * expanded (`$HOME`, `$(…)`, `*`, `${{ … }}` and `;` stay literal text of an argument). Throws on an unclosed quote.
 * @param {string} text
 * @returns {string[]}
 */
export function splitArgs(text) {
  const args = [];
  let current = '';
  let started = false;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = '';
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && i + 1 < text.length && '"\\'.includes(text[i + 1])) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (quote !== '') throw new Error(`args: a ${quote === '"' ? 'double' : 'single'} quote is not closed`);
  if (started) args.push(current);
  return args;
}
