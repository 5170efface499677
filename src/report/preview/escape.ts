/** HTML text and attribute values: every character that could end the text or the value, as a reference. Pure. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
