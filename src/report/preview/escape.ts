import { sanitizeTerminalText } from '../terminal-text.js';

/** HTML text and attribute values: every character that could end the text or the value, as a reference. Pure. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * A label a reviewer reads (a name, a type, an identifier, a path, a finding), from a definition or the service:
 * control characters and bidi overrides made visible first (terminal-text.ts), so none can reorder the text around
 * it, then escaped. Never a message's content, which the preview shows as the recipient gets it.
 */
export function escapeLabel(text: string): string {
  return escapeHtml(sanitizeTerminalText(text, '\n\t'));
}
