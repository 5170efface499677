/**
 * The local page answers only its own page. It binds 127.0.0.1, and a request must also name it: a Host header other
 * than the loopback address and port it listens on is refused (DNS rebinding: a web page whose name resolves to
 * 127.0.0.1 would reach the port, but says its own name), and a write (POST) must come from the page's own origin
 * (`Origin`, `Sec-Fetch-Site`) as JSON, so another site cannot drive it from the user's browser.
 */
export interface RequestFacts {
  method: string;
  host: string | null;
  origin: string | null;
  fetchSite: string | null;
  contentType: string | null;
}

export interface Refusal {
  status: number;
  message: string;
}

/** `127.0.0.1:<port>` and `localhost:<port>`: the only Host values the page answers. */
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function refuseRequest(request: RequestFacts, hosts: ReadonlySet<string>): Refusal | undefined {
  if (request.host === null || !hosts.has(request.host.toLowerCase()))
    return { status: 421, message: 'this page answers only http://127.0.0.1 on its own port (Host refused)' };
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  if (request.origin !== null && !hosts.has(request.origin.toLowerCase().replace(/^http:\/\//, '')))
    return { status: 403, message: 'cross-origin request refused' };
  if (request.fetchSite !== null && request.fetchSite !== 'same-origin' && request.fetchSite !== 'none')
    return { status: 403, message: 'cross-site request refused' };
  if (request.method !== 'POST') return { status: 405, message: 'method not allowed' };
  if (!(request.contentType ?? '').toLowerCase().startsWith('application/json'))
    return { status: 415, message: 'send JSON (Content-Type: application/json)' };
  return undefined;
}
