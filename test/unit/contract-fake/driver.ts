/**
 * Runs one request sequence against a service (the emulator or the contract fake) and keeps what each step
 * answered, normalised so two services can be compared: every ObjectId becomes `<id>`, every ISO timestamp `<time>`.
 * Relations that ids carry (a kept step keeps its template, a Production copy points at its Development workflow)
 * are checked by the scenario itself and kept as `facts`.
 */

export interface ServiceUnderTest {
  url: string;
  devKey: string;
  prodKey: string;
  groupId: string;
}

export type KeyChoice = 'dev' | 'prod' | 'none' | 'unknown' | 'bearer';

export interface Exchange {
  label: string;
  status: number;
  body: unknown;
}

const OBJECT_IDS = /\b[0-9a-f]{24}\b/g;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function normalise(value: unknown): unknown {
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) return '<time>';
    return value.replace(OBJECT_IDS, '<id>');
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, normalise((value as Record<string, unknown>)[k])]),
    );
  return value;
}

export interface CallOptions {
  key?: KeyChoice;
  json?: unknown;
  /** What of a 2xx answer to keep: its status only, or a projection of its body (default: the whole body). */
  // biome-ignore lint/suspicious/noExplicitAny: scenarios read deep into JSON bodies
  record?: 'status' | ((body: any) => unknown);
}

export class Driver {
  readonly exchanges: Exchange[] = [];
  readonly facts: Record<string, unknown> = {};

  constructor(readonly service: ServiceUnderTest) {}

  // biome-ignore lint/suspicious/noExplicitAny: scenarios read deep into JSON bodies
  async call(label: string, method: string, path: string, options: CallOptions = {}): Promise<any> {
    const headers: Record<string, string> = {};
    const key = options.key ?? 'dev';
    if (key === 'dev') headers.authorization = `ApiKey ${this.service.devKey}`;
    else if (key === 'prod') headers.authorization = `ApiKey ${this.service.prodKey}`;
    else if (key === 'unknown') headers.authorization = 'ApiKey not-a-key-of-this-service';
    else if (key === 'bearer') headers.authorization = `Bearer ${this.service.devKey}`;
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.service.url}${path}`, { method, headers, body });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    const recorded =
      options.record === 'status' || response.status >= 300 || options.record === undefined
        ? options.record === 'status'
          ? undefined
          : parsed
        : options.record(parsed);
    this.exchanges.push({ label, status: response.status, body: normalise(recorded) });
    return parsed;
  }

  fact(name: string, value: unknown): void {
    this.facts[name] = value;
  }
}

/** Where two normalised values differ, as `path: a | b` lines (for a readable failure). */
export function differences(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const both = (v: unknown) => typeof v === 'object' && v !== null;
  if (both(a) && both(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    return [...keys].flatMap((k) =>
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`),
    );
  }
  return [`${path}: ${JSON.stringify(a)} | ${JSON.stringify(b)}`];
}
