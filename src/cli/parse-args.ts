import { InvalidArgumentError } from 'commander';

/** Commander argument parsers: a bad value becomes a usage error (exit 64) naming the flag. */
export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number ≥ 0');
  return Number(value);
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number ≥ 1');
  return Number(value);
}
