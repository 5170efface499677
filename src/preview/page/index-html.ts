/** The page (`wfsync preview --serve`): a static shell; app.js fills it from the API. No inline script or style. */
export const PAGE_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>wfsync preview</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="top"><h1>wfsync preview</h1><span id="count" class="muted"></span><span id="live" class="live">connecting…</span></header>
<div class="layout">
<nav id="workflows" aria-label="workflows"></nav>
<main id="preview"><p class="muted">Loading…</p></main>
<aside class="editor">
<label for="preview-choice">Data</label>
<select id="preview-choice"><option value="">sample data</option></select>
<label for="payload">Payload (JSON)</label>
<textarea id="payload" spellcheck="false" rows="18"></textarea>
<div id="payload-error" class="payload-error" role="alert"></div>
<button id="reset" type="button">Reset to the sample</button>
<p class="muted">Emails render in a sandbox: no scripts, no remote loads (remote images only with --allow-images). The
service's own layout wraps editor-block emails.</p>
</aside>
</div>
</body>
</html>
`;
