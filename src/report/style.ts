/** Wraps text in one ANSI style, or returns it unchanged when color is off. */
export type Paint = (text: string) => string;

export interface Style {
  red: Paint;
  yellow: Paint;
  blue: Paint;
  green: Paint;
  cyan: Paint;
  dim: Paint;
  bold: Paint;
  underline: Paint;
}

const identity: Paint = (text) => text;

/**
 * A tiny ANSI styler. With `color` false every paint is the identity, so no escape code can leak into
 * piped output. Callers decide `color` (NO_COLOR, FORCE_COLOR, isTTY): this module reads no environment.
 */
export function createStyle(color: boolean): Style {
  if (!color) {
    return {
      red: identity,
      yellow: identity,
      blue: identity,
      green: identity,
      cyan: identity,
      dim: identity,
      bold: identity,
      underline: identity,
    };
  }
  return {
    red: paint(31, 39),
    yellow: paint(33, 39),
    blue: paint(34, 39),
    green: paint(32, 39),
    cyan: paint(36, 39),
    // bold and dim share their reset code (22), hence the re-open below when they nest.
    dim: paint(2, 22),
    bold: paint(1, 22),
    underline: paint(4, 24),
  };
}

function paint(open: number, close: number): Paint {
  const openCode = `\x1b[${open}m`;
  const closeCode = `\x1b[${close}m`;
  return (text) => {
    if (text === '') return text;
    // An inner style that closes with our reset code would end ours early: re-open after it.
    const body = text.includes(closeCode) ? text.split(closeCode).join(closeCode + openCode) : text;
    return openCode + body + closeCode;
  };
}
