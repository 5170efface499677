import { WfsyncError } from '../errors.js';
import { workingBoundary } from '../fs-boundary.js';
import {
  type AtomicWriteOptions,
  describeFsError,
  removeStrayTempFiles,
  writeFileAtomically,
} from './atomic-write.js';
import { checkState, findEntryProblem, findPendingProblem } from './check.js';
import { normalizeStateBaseUrl, serializeState } from './format.js';
import { assertSameTarget, type ExpectedTarget, readState } from './read.js';
import type { PendingWrite, StateEntry, StateFile } from './types.js';

/** For tests: `fs` injects failing file operations (a full disk, a crash before the rename). */
export type StateStoreOptions = Pick<AtomicWriteOptions, 'fs'>;

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The state of one target, in memory and on disk. Every change is applied in memory at once, then written
 * atomically; the returned promise settles when a write that includes the change is durable (renamed into place,
 * directory fsynced) or has failed.
 *
 * Writes are serialized and coalesced (group commit): at most one write is in flight, and every change made while
 * it runs joins the single next write, which serializes the state when it starts. A burst of 1,000 creates finishing
 * together therefore costs a handful of fsyncs, not 2,000, yet no caller is told "recorded" before its change is on
 * disk. That is the guarantee apply relies on: `await recordPending(…)` before the POST means an interrupted create
 * is always in the journal; `await recordWorkflow(…)` means the id is durable before anything else can POST the same
 * identifier (a later run reads this file only after this one released the lock).
 *
 * A failed write rejects every change that joined it with a WfsyncError naming the file and the OS error; the file
 * keeps its previous content. Memory keeps the changes and the next write carries them; a journal entry that reached
 * disk although its POST never happened is harmless (reconciling finds nothing on the service and clears it).
 */
export class StateStore {
  readonly path: string;
  #state: StateFile;
  readonly #expected: ExpectedTarget;
  /** The writer's options: `{fs}` when a test injects file operations, else nothing. */
  readonly #writeOptions: AtomicWriteOptions;
  /** Count of changes made, and how many of them are known to be on disk. */
  #changes = 0;
  #durable = 0;
  /** The write on disk now, and the change count it carries. */
  #inFlight: { promise: Promise<void>; upTo: number } | undefined;
  #next: Waiter | undefined;

  private constructor(
    path: string,
    state: StateFile,
    expected: ExpectedTarget,
    writeOptions: AtomicWriteOptions,
  ) {
    this.path = path;
    this.#state = state;
    this.#expected = expected;
    this.#writeOptions = writeOptions;
  }

  /** Read (or start) the state file and clean temp files a crashed writer left (see removeStrayTempFiles). */
  static async open(
    path: string,
    expected: ExpectedTarget,
    options: StateStoreOptions = {},
  ): Promise<StateStore> {
    const state = await readState(path, expected);
    await removeStrayTempFiles(path);
    // StateStoreOptions is the writer's options minus the file mode: handed on as they are, with the boundary
    // every write goes through found once (the project root does not move during a run).
    return new StateStore(path, state, expected, { boundary: workingBoundary(), ...options });
  }

  /** A deep copy: callers (the planner) can never change the store behind its back. */
  get snapshot(): StateFile {
    return structuredClone(this.#state);
  }

  /** Journal a create; resolves once durable, so only then may the POST be sent. */
  async recordPending(entry: PendingWrite): Promise<void> {
    assertValid(findPendingProblem(entry.identifier, entry), `pending[${JSON.stringify(entry.identifier)}]`);
    setOwn(this.#state.pending, entry.identifier, structuredClone(entry));
    return this.#changed();
  }

  /** Record a created (or adopted, rebuilt) workflow and clear its journal entry in the same write. */
  async recordWorkflow(identifier: string, entry: StateEntry): Promise<void> {
    assertValid(findEntryProblem(identifier, entry), `workflows[${JSON.stringify(identifier)}]`);
    setOwn(this.#state.workflows, identifier, structuredClone(entry));
    delete this.#state.pending[identifier];
    return this.#changed();
  }

  async clearPending(identifier: string): Promise<void> {
    if (!Object.hasOwn(this.#state.pending, identifier)) return this.flush();
    delete this.#state.pending[identifier];
    return this.#changed();
  }

  /** Drop a workflow (and any journal entry) from state, e.g. after it was deleted in the dashboard. */
  async forget(identifier: string): Promise<void> {
    const known =
      Object.hasOwn(this.#state.workflows, identifier) || Object.hasOwn(this.#state.pending, identifier);
    if (!known) return this.flush();
    delete this.#state.workflows[identifier];
    delete this.#state.pending[identifier];
    return this.#changed();
  }

  /** Replace everything (`wfsync state rebuild`); the new state must be valid and of this store's target. */
  async replace(state: StateFile): Promise<void> {
    const checked = checkState(state);
    if ('problem' in checked)
      throw new Error(`invalid state given to StateStore.replace: ${checked.problem}`);
    assertSameTarget(checked.state, this.path, this.#expected);
    this.#state = { ...checked.state, baseUrl: normalizeStateBaseUrl(checked.state.baseUrl) };
    return this.#changed();
  }

  /** Resolves when every change made so far is on disk (writing once more if an earlier write failed). */
  async flush(): Promise<void> {
    if (this.#durable === this.#changes) return;
    if (this.#inFlight?.upTo === this.#changes) return this.#inFlight.promise;
    return this.#schedule();
  }

  #changed(): Promise<void> {
    this.#changes++;
    return this.#schedule();
  }

  #schedule(): Promise<void> {
    if (this.#inFlight === undefined) return this.#write();
    if (this.#next === undefined) this.#next = waiter();
    return this.#next.promise;
  }

  #write(): Promise<void> {
    const upTo = this.#changes;
    const text = serializeState(this.#state);
    const promise = writeFileAtomically(this.path, text, this.#writeOptions)
      .then(
        () => {
          this.#durable = Math.max(this.#durable, upTo);
        },
        (error: unknown) => {
          throw new WfsyncError(
            `cannot write the state file ${this.path}: ${describeFsError(error)}; its previous content is intact`,
            { cause: error },
          );
        },
      )
      .finally(() => {
        this.#inFlight = undefined;
        const next = this.#next;
        this.#next = undefined;
        if (next !== undefined) this.#write().then(next.resolve, next.reject);
      });
    this.#inFlight = { promise, upTo };
    return promise;
  }
}

function assertValid(problem: string | undefined, where: string): void {
  // The remote layer checks ids against the response schema: a bad entry here is a bug, and writing it would
  // make the file unreadable on the next run.
  if (problem !== undefined) throw new Error(`refusing to record an invalid state entry: ${where}${problem}`);
}

/** Assign as an own data property: an identifier such as `__proto__` must not touch the prototype. */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    // Stryker disable next-line BooleanLiteral: no code assigns an entry in place (setOwn redefines, delete drops it)
    writable: true,
    configurable: true,
  });
}

function waiter(): Waiter {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
