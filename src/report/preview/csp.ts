/**
 * The Content-Security-Policy of both previews. Rendered emails are text from outside: they are shown only inside
 * `<iframe sandbox srcdoc>` (no allow-scripts, no allow-same-origin: an opaque origin that runs nothing), and an
 * iframe made from `srcdoc` inherits this policy too, so even markup that slipped out of the sandbox could not run a
 * script, submit a form, open a frame elsewhere or load anything remote. Images: `data:` URIs only, unless the
 * user allows remote images (`--allow-images`), which then load over http(s) and nothing else does.
 */
export interface CspOptions {
  allowImages?: boolean;
  /** The local page (`--serve`): its own script and style sheet, and requests to itself. */
  page?: boolean;
}

export function buildPreviewCsp(options: CspOptions = {}): string {
  const images = options.allowImages ? 'data: http: https:' : 'data:';
  const own = options.page ? " 'self'" : '';
  return [
    "default-src 'none'",
    `script-src${options.page ? " 'self'" : " 'none'"}`,
    `style-src 'unsafe-inline'${own}`,
    `img-src ${images}`,
    ...(options.page ? ["connect-src 'self'"] : []),
    'font-src data:',
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
