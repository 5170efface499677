/**
 * Where the user can change what a failure points at, for the "what to do" part of error messages. The client
 * does not read the config itself, so the caller says which target it serves and where its base URL came from.
 */
export interface AdviceContext {
  /** The target's name in wfsync.config.yaml: settings are then named `targets.<name>.<setting>`. */
  targetName: string | undefined;
  /** Where the base URL was set when not in wfsync.config.yaml, e.g. `--base-url` or `WFSYNC_BASE_URL`. */
  baseUrlFrom: string | undefined;
  /** The environment variable holding the API key. */
  apiKeyEnv: string | undefined;
}

const CONFIG_FILE = 'wfsync.config.yaml';

/** `timeouts.headersMs in wfsync.config.yaml`, or `targets.prod.timeouts.headersMs in …` when the target is known. */
export function setting(context: AdviceContext, name: string): string {
  const prefix = context.targetName === undefined ? '' : `targets.${context.targetName}.`;
  return `${prefix}${name} in ${CONFIG_FILE}`;
}

/** `check baseUrl in wfsync.config.yaml` (or the flag or variable it came from). */
export function checkBaseUrl(context: AdviceContext): string {
  return `check ${context.baseUrlFrom ?? setting(context, 'baseUrl')}`;
}

/** `$NOVU_API_KEY`, or `the API key` when the caller did not say where it came from. */
export function keyName(context: AdviceContext): string {
  return context.apiKeyEnv === undefined ? 'the API key' : `$${context.apiKeyEnv}`;
}

/** For answers that do not look like the service at all. */
export function notTheService(context: AdviceContext): string {
  return `${checkBaseUrl(context)}: is it the service's API root?`;
}

/** For connections and bodies cut short in transit. */
export const IN_TRANSIT_ADVICE =
  'if this keeps happening, look for a proxy or firewall between wfsync and the service';

/** `30 s`, `0.2 s`. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** `1 retry`, `3 retries`. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
