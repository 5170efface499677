import type * as Listr2 from 'listr2';
import type { ListrTaskWrapper } from 'listr2';
import type { ApplyEvent, ApplyPhase } from '../../apply/events.js';
import { onFirstUse } from '../../derive/first-use.js';
import { sanitizeTerminalText } from '../../report/terminal-text.js';
import { plural } from '../../text.js';
import { rawStream } from '../context.js';
import { describeRow, PhaseTally, type Progress } from './tally.js';

/** listr2, loaded when a terminal first shows progress: `plan`, `validate` and runs without a terminal never need it. */
const listr2 = onFirstUse<typeof Listr2>('listr2');

export interface TtyProgressOptions {
  /** Workflows in flight shown under the phase (default 8); the rest are counted. */
  maxRows?: number;
}

/** How often the live title and rows reach the terminal at most (listr2 itself redraws about every 100 ms). */
const SHOW_INTERVAL_MS = 50;

/** Lines kept under a phase once it ends (the latest failures, reconcile results): the report has the rest. */
const KEPT_LINES = 5;

/**
 * listr2 on a terminal: one task per phase (lock, reconcile, fetch, plan, create…), titled with its counter
 * (`Creating workflows (3/12)`), with a row per workflow in flight showing its status and retries. Finished
 * workflows leave the display, so it stays a few lines high for 1,000 workflows; the latest failures stay under
 * their phase. Phases run one listr2 list each, one after the other, so each leaves its final line.
 */
export function createTtyProgress(stream: NodeJS.WritableStream, options: TtyProgressOptions = {}): Progress {
  const maxRows = Math.max(1, options.maxRows ?? 8);
  const tally = new PhaseTally();
  let view: PhaseView | undefined;
  let kept: string[] = [];
  let notice: string | undefined;
  // Each phase's list starts once the previous one has closed: two renderers must never share the terminal.
  let chain: Promise<unknown> = Promise.resolve();

  const liveOutput = (): string => {
    const rows = [...tally.running.values()];
    const lines = rows.slice(0, maxRows).map(describeRow);
    if (rows.length > maxRows) lines.push(`…and ${rows.length - maxRows} more`);
    if (notice !== undefined) lines.push(notice);
    return [...lines, ...kept].map((line) => sanitizeTerminalText(line)).join('\n');
  };
  const refresh = () => view?.show(runningTitle(tally), liveOutput());
  const endPhase = () => {
    if (view === undefined || tally.phase === undefined) return;
    view.end({
      title: finalTitle(tally),
      output: kept.map((line) => sanitizeTerminalText(line)).join('\n'),
      failed:
        (tally.phase === 'create' || tally.phase === 'update') && (tally.outcomes.get('failed') ?? 0) > 0,
    });
    view = undefined;
  };
  const keep = (line: string) => {
    kept = [...kept, line].slice(-KEPT_LINES);
  };

  return {
    onEvent(event: ApplyEvent) {
      if (event.type === 'notice') {
        // Notices are of the moment (a wait, a lock held by another run): the latest one shows while it matters.
        notice = event.message;
        refresh();
        return;
      }
      if (event.type === 'phase') {
        endPhase();
        tally.apply(event);
        kept = [];
        notice = undefined;
        if (event.phase === 'done') return;
        const next = new PhaseView(runningTitle(tally));
        view = next;
        chain = chain.then(() => runPhase(stream, next));
        return;
      }
      const finished = tally.apply(event);
      if (finished !== undefined) {
        const { row, outcome } = finished;
        if (outcome === 'failed') {
          keep(`✖ ${row.identifier}: ${row.message ?? 'failed'}`);
        } else if (outcome === undefined && tally.phase === 'reconcile' && row.message !== undefined) {
          keep(`${row.identifier}: ${row.message}`);
        }
      }
      refresh();
    },
    async done() {
      endPhase();
      await chain;
    },
  };
}

async function runPhase(stream: NodeJS.WritableStream, view: PhaseView): Promise<void> {
  // listr2 owns the terminal (cursor moves, redraws): it gets the stream under the CLI's channel, and every line of
  // text from outside it shows is sanitised above (liveOutput, endPhase): the progress display is its own channel.
  const out = rawStream(stream) as NodeJS.WriteStream;
  const rendererOptions = {
    logger: new (listr2().ListrLogger)({ processOutput: new (listr2().ProcessOutput)(out, out) }),
    formatOutput: 'truncate' as const,
    collapseErrors: true,
    showErrorMessage: true,
  };
  const list = new (listr2().Listr)(
    [
      {
        title: view.title,
        task: (_ctx, task) => view.run(task),
        // Both: listr2 reads the fallback's when process.stdout is not a terminal, whatever renderer is named.
        rendererOptions: { persistentOutput: true },
        fallbackRendererOptions: { persistentOutput: true },
      },
    ],
    {
      // The CLI decided this stream is a terminal; listr2 would otherwise look at process.stdout.
      renderer: 'default',
      fallbackRenderer: 'default',
      rendererOptions,
      fallbackRendererOptions: rendererOptions,
      exitOnError: false,
      // The CLI owns Ctrl-C (first: stop starting creates; second: abort); listr2's handler would exit the process.
      registerSignalListeners: false,
    },
  );
  await list.run();
}

const RUNNING: Record<Exclude<ApplyPhase, 'done'>, string> = {
  lock: 'Locking the state file',
  reconcile: 'Checking interrupted creates',
  fetch: 'Looking up workflows',
  plan: 'Planning',
  create: 'Creating workflows',
  update: 'Updating workflows',
  verify: 'Verifying',
};

function runningTitle(tally: PhaseTally): string {
  const phase = tally.phase === undefined || tally.phase === 'done' ? 'plan' : tally.phase;
  const counter =
    tally.total === undefined
      ? tally.finished > 0
        ? ` (${tally.finished})`
        : ''
      : ` (${tally.finished}/${tally.total})`;
  return `${RUNNING[phase]}${phase === 'lock' || phase === 'plan' ? '' : counter}`;
}

/** The title a phase ends with. */
function finalTitle(tally: PhaseTally): string {
  const count = tally.total ?? tally.finished;
  switch (tally.phase) {
    case 'lock':
      return 'Locked the state file';
    case 'reconcile':
      return count === 0 ? 'No interrupted creates' : `Checked ${plural(count, 'interrupted create')}`;
    case 'fetch':
      return `Looked up ${plural(count, 'workflow')}`;
    case 'create': {
      if (count === 0) return 'Nothing to create';
      const skipped = tally.outcomes.get('skipped') ?? 0;
      const failures = tally.outcomes.get('failed') ?? 0;
      const deleted = tally.outcomes.get('deleted') ?? 0;
      const extra = [
        deleted > 0 ? `${deleted} deleted` : '',
        failures > 0 ? `${failures} failed` : '',
        skipped > 0 ? `${skipped} skipped` : '',
      ]
        .filter((part) => part !== '')
        .join(', ');
      return `Created ${tally.outcomes.get('created') ?? 0} of ${plural(count, 'workflow')}${extra === '' ? '' : ` (${extra})`}`;
    }
    case 'update': {
      const failures = tally.outcomes.get('failed') ?? 0;
      return `Updated ${tally.outcomes.get('updated') ?? 0} of ${plural(count, 'workflow')}${failures > 0 ? ` (${failures} failed)` : ''}`;
    }
    case 'verify':
      return 'Verified';
    default:
      return 'Planned';
  }
}

/** How a phase ended: its last title, lines to keep under it, and whether to mark it failed. */
interface PhaseEnd {
  title: string;
  output: string;
  failed: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: listr2's wrapper generics carry renderer types apply never uses
type AnyTaskWrapper = ListrTaskWrapper<any, any, any>;

/**
 * The live title and output of one phase's listr2 task. Events can arrive before listr2 has started the task
 * (the previous phase's renderer is still closing): the view keeps the latest text and applies it on attach.
 */
export class PhaseView {
  #title: string;
  #output = '';
  #task: AnyTaskWrapper | undefined;
  #pending: ReturnType<typeof setTimeout> | undefined;
  readonly #ended: Promise<PhaseEnd>;
  #end!: (end: PhaseEnd) => void;

  constructor(title: string) {
    this.#title = title;
    this.#ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  /** The title now: listr2 needs one when the task is created, or it sends the output to its bottom bar. */
  get title(): string {
    return this.#title;
  }

  /** listr2's task function: shows the view until the phase ends, then its final state. */
  async run(task: AnyTaskWrapper): Promise<void> {
    this.#task = task;
    this.#refresh();
    const end = await this.#ended;
    this.#task = undefined;
    task.title = end.title;
    task.output = end.output;
    // A thrown error is how listr2 marks a task failed; exitOnError is off, so nothing else stops.
    if (end.failed) throw new Error(end.title);
  }

  /**
   * The latest text reaches listr2 at most every SHOW_INTERVAL_MS: each update of a task costs listr2 a few
   * milliseconds, and a sync of 1,000 workflows sends thousands of events (one render per event took seconds).
   */
  show(title: string, output: string): void {
    this.#title = title;
    this.#output = output;
    this.#pending ??= setTimeout(() => {
      this.#pending = undefined;
      this.#refresh();
    }, SHOW_INTERVAL_MS);
  }

  end(end: PhaseEnd): void {
    clearTimeout(this.#pending);
    this.#pending = undefined;
    this.#end(end);
  }

  #refresh(): void {
    const task = this.#task;
    if (task === undefined) return;
    if (task.title !== this.#title) task.title = this.#title;
    if ((task.output ?? '') !== this.#output) task.output = this.#output;
  }
}
