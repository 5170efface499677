import type { ListrTaskWrapper } from 'listr2';

/** How a phase ended: its last title, lines to keep under it, and whether to mark it failed. */
export interface PhaseEnd {
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

  show(title: string, output: string): void {
    this.#title = title;
    this.#output = output;
    this.#refresh();
  }

  end(end: PhaseEnd): void {
    this.#end(end);
  }

  #refresh(): void {
    const task = this.#task;
    if (task === undefined) return;
    if (task.title !== this.#title) task.title = this.#title;
    if ((task.output ?? '') !== this.#output) task.output = this.#output;
  }
}
