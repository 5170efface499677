import { MAX_DEFINITION_DEPTH } from '../json.js';

/** Bounds that keep one hostile or broken file from exhausting memory, stack or time. */
export interface LoadLimits {
  /** Largest file read, in bytes (checked before decoding). */
  maxBytes: number;
  /** Deepest nesting of mappings and sequences, counting the root as 1 (aliases count at their use). */
  maxDepth: number;
  /** yaml's `maxAliasCount`: how far aliases may expand before the document counts as an attack. */
  maxAliasCount: number;
}

export const DEFAULT_LOAD_LIMITS: Readonly<LoadLimits> = Object.freeze({
  maxBytes: 1024 * 1024,
  maxDepth: MAX_DEFINITION_DEPTH,
  maxAliasCount: 100,
});

export function resolveLoadLimits(limits: Partial<LoadLimits> = {}): LoadLimits {
  return {
    maxBytes: limits.maxBytes ?? DEFAULT_LOAD_LIMITS.maxBytes,
    maxDepth: limits.maxDepth ?? DEFAULT_LOAD_LIMITS.maxDepth,
    maxAliasCount: limits.maxAliasCount ?? DEFAULT_LOAD_LIMITS.maxAliasCount,
  };
}

/** `1536` → `1.5 KiB`; exact bytes below 1 KiB so small caps in tests stay readable. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${units[unit]}`;
}

export function fileTooLargeMessage(size: number, maxBytes: number): string {
  return `file is ${formatBytes(size)} (${size} bytes), over the ${formatBytes(maxBytes)} limit`;
}
