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
}

const identity: Paint = (text) => text;

/** Each paint's SGR open and close codes: the only escape sequences wfsync itself ever writes. */
const PALETTE: Record<keyof Style, readonly [open: number, close: number]> = {
  red: [31, 39],
  yellow: [33, 39],
  blue: [34, 39],
  green: [32, 39],
  cyan: [36, 39],
  // bold and dim share their reset code (22), hence the re-open below when they nest.
  dim: [2, 22],
  bold: [1, 22],
};

/** The SGR sequences the palette emits (`\x1b[31m`…): what the terminal channel lets through when color is on. */
export const PALETTE_SEQUENCES: ReadonlySet<string> = new Set(
  Object.values(PALETTE).flatMap((codes) => codes.map((code) => `\x1b[${code}m`)),
);

/**
 * A tiny ANSI styler. With `color` false every paint is the identity, so no escape code can leak into
 * piped output. Callers decide `color` (NO_COLOR, FORCE_COLOR, isTTY): this module reads no environment.
 */
export function createStyle(color: boolean): Style {
  const entries = Object.entries(PALETTE) as Array<[keyof Style, readonly [number, number]]>;
  return Object.fromEntries(
    entries.map(([name, [open, close]]) => [name, color ? paint(open, close) : identity]),
  ) as unknown as Style;
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
