export const ROOT: string;
export const COMMAND_PAGES: string;
export function helpOutput(args: readonly string[]): string;
export function usageCommands(text: string): string[][];
export function renderUsage(text: string, help: (args: string[]) => string): string;
export function publicCommands(help?: (args: string[]) => string): string[];
export function commandPagePath(command: string): string;
