/** UTF-8 decoding that says where a file stops being UTF-8. Pure (TextDecoder is a global). */

export type DecodeResult =
  | { ok: true; text: string }
  | { ok: false; offset: number; line: number; column: number; message: string };

const strict = new TextDecoder('utf-8', { fatal: true });
// ignoreBOM keeps a U+FEFF that starts a later line; the file's own leading BOM is removed by hand below.
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes strictly; a leading BOM is dropped (TextDecoder's default). */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const offset = Math.max(0, findInvalidUtf8(bytes));
    let lineStart = 0;
    let line = 1;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    // Columns count UTF-16 units like the rest of wfsync; the bytes before the bad one are valid by definition.
    const before = lenient.decode(bytes.subarray(lineStart, offset));
    const column = before.length + 1 - (lineStart === 0 && before.startsWith('\uFEFF') ? 1 : 0);
    return { ok: false, offset, line, column, message: encodingMessage(bytes, offset) };
  }
}

function encodingMessage(bytes: Uint8Array, offset: number): string {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    return 'file is UTF-16 encoded; save it as UTF-8';
  }
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return `file is not valid UTF-8 (byte 0x${byte} at offset ${offset}); save it as UTF-8`;
}

/**
 * Offset of the first byte that starts an ill-formed sequence (WHATWG/Unicode rules: no overlongs, no
 * surrogates, nothing above U+10FFFF), or -1 when every byte is well-formed.
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) lo = 0xa0;
      else if (lead === 0xed) hi = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) lo = 0x90;
      else if (lead === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < lo || next > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return -1;
}
