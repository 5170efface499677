/**
 * Reading one file a definition refers to (`content: {file: ./order-shipped.email.html}`): the path checked (relative,
 * `/` separators, inside the project, symbolic links included), then the file read with the same care as a
 * definition (regular file, size checked before reading, strict UTF-8). Every failure is a value, never a throw.
 */

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describeRoot, type FsBoundary, isInside, type ProjectRoot } from '../fs-boundary.js';
import { suggestName } from '../text.js';
import { type IncludeStyle, normalizeIncludeText } from './include-references.js';
import { formatBytes } from './limits.js';
import { fsErrorReason, readRegularFile } from './read-capped.js';
import { decodeUtf8 } from './utf8.js';

export type IncludeProblemCode =
  | 'include-path-invalid'
  | 'include-outside-project'
  | 'include-not-found'
  | 'include-unreadable'
  | 'include-too-large'
  | 'include-encoding';

export type IncludeRead =
  | { ok: true; absolute: string; text: string; style: IncludeStyle }
  | { ok: false; code: IncludeProblemCode; message: string };

export interface IncludeRequest {
  /** The path as written in the definition. */
  written: string;
  /** How messages name the file: its path relative to the working directory. */
  display: string;
  definitionDir: string;
  /** What the file is read through: its project root is the definition's (fs-boundary.ts). */
  boundary: FsBoundary;
  maxBytes: number;
}

export function readIncludeFile(request: IncludeRequest): IncludeRead {
  const { written, display, boundary } = request;
  const invalid = includePathProblem(written);
  if (invalid) return { ok: false, code: 'include-path-invalid', message: invalid };
  const absolute = path.resolve(request.definitionDir, written);
  const outside = (how: string, root: ProjectRoot): IncludeRead => ({
    ok: false,
    code: 'include-outside-project',
    message: `${how} outside ${describeRoot(root)}: keep included files inside it`,
  });
  // The definition's project root: that of a file in its directory.
  const root = boundary.rootFor(path.join(request.definitionDir, 'definition.yaml'));
  if (!isInside(root.dir, absolute)) return outside(`"${written}" leads`, root);
  const read = readRegularFile(absolute, request.maxBytes, boundary);
  if ('outside' in read) return outside(`"${written}" is a symbolic link that leads`, read.outside);
  if ('error' in read) return failure(read.error, request, absolute);
  if ('problem' in read) {
    return unreadable(
      display,
      read.problem === 'directory' ? 'it is a directory' : 'it is not a regular file',
    );
  }
  // fstat's size first (nothing read for a huge file), then what was read (the file may grow meanwhile).
  const size = 'tooLarge' in read ? read.tooLarge : read.bytes.length;
  if ('tooLarge' in read || size > request.maxBytes) {
    const message = `${display} is ${formatBytes(size)} (${size} bytes), over the ${formatBytes(request.maxBytes)} limit for an included file`;
    return { ok: false, code: 'include-too-large', message };
  }
  return decodeIncludeBytes(read.bytes, display, absolute);
}

/** An included file's bytes as its text (strict UTF-8, BOM and CRLF noted), or why not. */
export function decodeIncludeBytes(bytes: Uint8Array, display: string, absolute: string): IncludeRead {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const where = `byte 0x${(bytes[decoded.offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at line ${decoded.line}, column ${decoded.column}`;
    const message = utf16
      ? `${display} is UTF-16 encoded; save it as UTF-8`
      : `${display} is not valid UTF-8 (${where}); save it as UTF-8`;
    return { ok: false, code: 'include-encoding', message };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const crlf = decoded.text.includes('\r\n');
  return { ok: true, absolute, text: normalizeIncludeText(decoded.text), style: { bom, crlf } };
}

/** Why a written path cannot be a reference, or undefined when it can. */
export function includePathProblem(written: string): string | undefined {
  const fix = 'write it relative to the definition\'s directory, such as "./order-shipped.email.html"';
  if (written.includes('\\'))
    return `"${written}" uses "\\": separate directories with "/" so it works everywhere`;
  if (written.includes('\0')) return `"${written}" holds a NUL character`;
  if (path.posix.isAbsolute(written) || /^[A-Za-z]:/.test(written))
    return `"${written}" is an absolute path: ${fix}`;
  if (written.startsWith('~')) return `"${written}" starts with "~", which is not expanded: ${fix}`;
  if (written.endsWith('/') || path.posix.normalize(written) === '.')
    return `"${written}" names a directory, not a file`;
  return undefined;
}

function failure(error: NodeJS.ErrnoException, request: IncludeRequest, absolute: string): IncludeRead {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    const hint = suggestSibling(request.written, absolute);
    return {
      ok: false,
      code: 'include-not-found',
      message: `${request.display} does not exist${hint ? ` (did you mean "${hint}"?)` : ''}`,
    };
  }
  return unreadable(request.display, fsErrorReason(error));
}

function unreadable(display: string, reason: string): IncludeRead {
  return { ok: false, code: 'include-unreadable', message: `cannot read ${display}: ${reason}` };
}

/** A file next to the missing one whose name is a likely typo of it, written the way the reference was. */
function suggestSibling(written: string, absolute: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(path.dirname(absolute), { withFileTypes: true })
      .filter((entry) => entry.isFile() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return undefined;
  }
  const name = suggestName(path.basename(absolute), names);
  return name === undefined ? undefined : written.slice(0, written.lastIndexOf('/') + 1) + name;
}
