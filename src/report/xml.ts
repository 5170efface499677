import { escapeXmlCommands } from './channel.js';

/** Characters XML 1.0 does not allow at all, not even as references (most C0 controls, U+FFFE/U+FFFF, lone surrogates). */
const FORBIDDEN = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Writes a forbidden character as visible text (`\u001B`) rather than dropping it silently. */
function replaceForbidden(text: string): string {
  return text.replace(
    FORBIDDEN,
    (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/** Allowed in XML but unsafe raw in a terminal or a log: DEL, C1, bidi controls, line/paragraph separators. */
const UNSAFE_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Escapes element text. `\r` is kept as a reference, since parsers turn a literal one into `\n`. Characters a
 * terminal or the Actions runner would act on become character references too (the same text to a parser).
 */
export function escapeXmlText(text: string): string {
  const escaped = replaceForbidden(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;')
    .replace(UNSAFE_RAW, (ch) => `&#${ch.charCodeAt(0)};`);
  return escapeXmlCommands(escaped);
}

/** Escapes a double-quoted attribute value. Whitespace is kept as references, which attribute normalization keeps. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/** `name="value"` pairs in the given order, escaped. */
export function xmlAttributes(attributes: ReadonlyArray<readonly [string, string | number]>): string {
  return attributes.map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`).join('');
}
