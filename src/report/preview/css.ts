/**
 * The look both previews share: the standalone HTML file (html.ts) and the local page (`wfsync preview --serve`).
 * Plain CSS, no remote fonts or images: the Content-Security-Policy of both allows nothing remote.
 */
export const PREVIEW_CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #f6f8fa; --accent: #0969da;
  --bad: #cf222e; --warn: #9a6700; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
body { margin: 0; background: var(--bg); }
header.top { padding: 12px 20px; background: #fff; border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 18px; margin: 0; }
main { padding: 16px 20px; }
.workflow { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 0 0 20px; padding: 12px 16px; }
.workflow > h2 { font-size: 16px; margin: 0 0 2px; }
.file, .muted { color: var(--muted); font-size: 12px; }
.steps { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 12px; align-items: flex-start; }
.step { border: 1px solid var(--line); border-radius: 8px; padding: 10px; background: #fff; }
.step > h3 { font-size: 13px; margin: 0 0 8px; font-weight: 600; }
.step > h3 .type { color: var(--muted); font-weight: 400; margin-left: 6px; }
.step.email { flex: 1 1 620px; max-width: 720px; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0 0 8px; font-size: 13px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
iframe.email-body { width: 100%; height: 520px; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
pre.text-body { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font: inherit; }
.phone { width: 300px; min-height: 200px; border: 10px solid #24292f; border-radius: 28px; padding: 24px 12px;
  background: #eef1f4; box-sizing: border-box; }
.bubble { background: #e9e9eb; border-radius: 16px; padding: 8px 12px; white-space: pre-wrap; overflow-wrap: anywhere;
  max-width: 230px; }
.bubble.chat { background: #fff; border: 1px solid var(--line); border-radius: 6px; max-width: none; }
.notification { background: #fff; border-radius: 12px; padding: 10px 12px; box-shadow: 0 1px 3px rgba(0,0,0,.2); }
.notification .title { font-weight: 600; overflow-wrap: anywhere; }
.notification .body { white-space: pre-wrap; overflow-wrap: anywhere; }
.inbox { width: 340px; border: 1px solid var(--line); border-radius: 8px; padding: 12px; background: #fff;
  box-shadow: 0 4px 12px rgba(0,0,0,.08); }
.inbox .body { white-space: pre-wrap; overflow-wrap: anywhere; }
.inbox .cta { margin-top: 10px; display: flex; gap: 8px; flex-wrap: wrap; }
.inbox .button { border: 1px solid var(--accent); color: var(--accent); border-radius: 6px; padding: 3px 10px; }
.inbox .button.primary { background: var(--accent); color: #fff; }
.inbox .url { margin-top: 6px; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
.silent { color: var(--muted); font-style: italic; }
.empty { color: var(--muted); font-style: italic; }
.render-error { border: 1px solid var(--bad); background: #ffebe9; color: var(--bad); border-radius: 6px; padding: 8px 10px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
ul.diagnostics { list-style: none; padding: 0; margin: 10px 0 0; font-size: 13px; }
ul.diagnostics li { padding: 4px 0; border-top: 1px dashed var(--line); overflow-wrap: anywhere; }
ul.diagnostics .where { font-family: ui-monospace, monospace; }
ul.diagnostics .error { color: var(--bad); }
ul.diagnostics .warning { color: var(--warn); }
ul.diagnostics .info { color: var(--accent); }
`;
