/**
 * Route Ctrl-C (SIGINT) and SIGTERM to a handler while a command runs, instead of Node's default of exiting at
 * once. Returns the function that restores the default.
 */
export function onInterrupt(handler: () => void): () => void {
  const listener = (): void => handler();
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
}
