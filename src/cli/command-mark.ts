/**
 * The per-process mark our renderers put in front of the workflow-command lines they make themselves (render
 * options' `commandMark`), which the output channels strip (report/channel.ts): text from outside cannot know it, so
 * it cannot pass for one of our lines. Made on first use: most runs (`validate` in a pre-commit hook, every human
 * format) write no command of their own and never load node:crypto for it. Until a renderer asks for the mark, the
 * channels know of none, so no line is ours, which is exactly right: nothing outside can know a mark that does not
 * exist.
 */
import { onFirstUse } from '../derive/first-use.js';

export interface CommandMark {
  /** The mark, made now if it was not yet: for a renderer about to write one of our own command lines. */
  readonly get: () => string;
  /** The mark if one was made, else undefined: for the channels, which must never make one. */
  readonly made: () => string | undefined;
}

/** node:crypto costs milliseconds to load: required the first time a mark is made. */
const crypto = onFirstUse<typeof import('node:crypto')>('node:crypto');

/** `make` is the mark's maker (tests give a fixed one); by default a random UUID's, never empty. */
export function createCommandMark(make: () => string = randomMark): CommandMark {
  let mark: string | undefined;
  return {
    get: () => {
      mark ??= make();
      return mark;
    },
    made: () => mark,
  };
}

function randomMark(): string {
  return `wfsync-own-${crypto().randomUUID()}:`;
}
