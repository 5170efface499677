import { PREVIEW_CSS } from '../../report/preview/css.js';

/** The page's style sheet, served as /app.css: the look the HTML file has, and the page's layout. */
export const PAGE_STYLE = `${PREVIEW_CSS}
header.top { display: flex; gap: 16px; align-items: baseline; }
.live { margin-left: auto; font-size: 12px; color: var(--muted); }
.live.on { color: #1a7f37; }
.live.off { color: var(--bad); }
.layout { display: grid; grid-template-columns: 260px 1fr 320px; gap: 0; min-height: calc(100vh - 50px); }
nav#workflows { border-right: 1px solid var(--line); background: #fff; overflow-y: auto; max-height: calc(100vh - 50px); }
.workflow-link { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line);
  background: none; padding: 8px 12px; font: inherit; cursor: pointer; }
.workflow-link.selected { background: #ddf4ff; }
.workflow-link.broken .name { color: var(--bad); }
.workflow-link .name { display: block; font-weight: 600; overflow-wrap: anywhere; }
.workflow-link .muted { display: block; overflow-wrap: anywhere; }
.workflow-link .badge { font-size: 11px; color: #fff; background: var(--bad); border-radius: 8px; padding: 0 6px; }
.step-list { list-style: none; margin: 4px 0 0; padding: 0; font-size: 12px; color: var(--muted); }
aside.editor { border-left: 1px solid var(--line); background: #fff; padding: 12px; display: flex; flex-direction: column; gap: 6px; }
aside.editor textarea { width: 100%; box-sizing: border-box; font: 12px/1.4 ui-monospace, monospace; }
.payload-error { color: var(--bad); min-height: 1.2em; white-space: pre-wrap; font-size: 12px; }
`;
