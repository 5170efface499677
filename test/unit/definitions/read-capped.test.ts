import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readCapped } from '../../../src/definitions/read-capped.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const project = useTempProjects('wfsync-read-capped-');

/** A real file of `size` bytes (0, 1, 2… repeating), opened for reading; closed after the test. */
function openFile(size: number): { fd: number; bytes: Uint8Array } {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251);
  const file = path.join(project({ 'f.yaml': bytes }), 'f.yaml');
  const fd = openSync(file, 'r');
  onTestFinished(() => closeSync(fd));
  return { fd, bytes };
}

describe('readCapped', () => {
  it.each([
    ['an empty file', 0, 0],
    ['fstat size exact', 1000, 1000],
    ['fstat size too small (the file grew)', 100_000, 10],
    ['fstat size too large (the file shrank)', 10, 5000],
    ['the 64 KiB default guess exceeded', 200_000, undefined],
  ])('%s: every byte, in order', (_case, size, expected) => {
    const { fd, bytes } = openFile(size);
    expect(readCapped(fd, 1_000_000, expected)).toEqual(bytes);
  });

  it('stops one byte past the cap, whatever fstat said', () => {
    const { fd, bytes } = openFile(5000);
    expect(readCapped(fd, 4096, 100)).toEqual(bytes.subarray(0, 4097));
  });

  it('a file exactly at the cap is read whole, and nothing more is asked for', () => {
    const { fd, bytes } = openFile(4096);
    expect(readCapped(fd, 4096, 4096)).toEqual(bytes);
  });

  it('a file rewritten longer after it was opened is read to its new end', () => {
    const file = path.join(project({ 'g.yaml': 'abc' }), 'g.yaml');
    const fd = openSync(file, 'r');
    onTestFinished(() => closeSync(fd));
    writeFileSync(file, 'abcdef');
    expect(new TextDecoder().decode(readCapped(fd, 100, 3))).toBe('abcdef');
  });
});
