import type { RelayedCommand, Verdict } from './verdict.js';

/** Where the relay's lines go: plain lines, annotations and the verdict (the provider's format marks them). */
export interface RelayOutput {
  line(text: string): void;
  /** A line the job's page shows as a warning or error (GitHub: an annotation; GitLab: a labelled line). */
  annotate(level: 'warning' | 'error', title: string, text: string): void;
  verdict(command: RelayedCommand, verdict: Verdict): void;
  /** GitHub: a step output ($GITHUB_OUTPUT). */
  setOutput(name: string, value: string): Promise<void>;
  /** GitHub: Markdown for the job summary ($GITHUB_STEP_SUMMARY). */
  appendSummary(markdown: string): Promise<void>;
}
