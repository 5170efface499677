/**
 * The sticky pull-request comment: ONE comment per target, found among the pull request's comments by the marker
 * wfsync's Markdown carries (`<!-- wfsync-plan target=… -->`) and written by the token's own identity, updated in
 * place, created only when there is something to say. GitHub's REST API through node's fetch, at GITHUB_API_URL
 * (GitHub Enterprise, or a loopback fake in tests); every page of comments is read (Link: rel="next"), and a next
 * page on another origin is refused so the token never leaves the API's host.
 */

/** Who posts when the token cannot tell (GITHUB_TOKEN is an installation token: `GET /user` refuses it). */
export const ACTIONS_BOT = 'github-actions[bot]';
const MAX_PAGES = 100;

/** A write the token may not make: a pull request from a fork gets a read-only GITHUB_TOKEN. */
export class CommentForbidden extends Error {}

/**
 * The marker to look for: the most specific one the body carries (the target's), else the plan's; when the body has
 * none (wfsync did not print a plan), the target's marker built as wfsync builds it.
 * @param {string} body
 * @param {string} target
 */
export function commentMarker(body, target) {
  const found = /<!-- wfsync-plan target=[^\s]* -->/.exec(body);
  if (found) return found[0];
  if (body.includes('<!-- wfsync-plan -->') || target === '') return '<!-- wfsync-plan -->';
  return `<!-- wfsync-plan target=${encodeURIComponent(target)} -->`;
}

/**
 * @param {{ apiUrl: string, token: string, repository: string, issueNumber: number, marker: string, body: string,
 *   createWhenNew: boolean }} options
 * @returns {Promise<{ action: 'created' | 'updated' | 'skipped', url: string }>}
 */
export async function upsertComment(options) {
  const api = createApi(options.apiUrl, options.token);
  const [owner, repo] = options.repository.split('/');
  const base = `/repos/${encodeURIComponent(owner ?? '')}/${encodeURIComponent(repo ?? '')}`;
  const author = await ownLogin(api);
  const comments = await api.list(`${base}/issues/${options.issueNumber}/comments?per_page=100`);
  const previous = comments.find(
    (c) => c?.user?.login === author && typeof c.body === 'string' && c.body.includes(options.marker),
  );
  if (previous) {
    const updated = await api.send('PATCH', `${base}/issues/comments/${Number(previous.id)}`, options.body);
    return { action: 'updated', url: String(updated.html_url ?? '') };
  }
  if (!options.createWhenNew) return { action: 'skipped', url: '' };
  const created = await api.send('POST', `${base}/issues/${options.issueNumber}/comments`, options.body);
  return { action: 'created', url: String(created.html_url ?? '') };
}

async function ownLogin(api) {
  const response = await api.request('GET', '/user');
  if (!response.ok) return ACTIONS_BOT;
  const user = await response.json();
  return typeof user?.login === 'string' ? user.login : ACTIONS_BOT;
}

/** @param {string} apiUrl @param {string} token */
function createApi(apiUrl, token) {
  const root = new URL(apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  const headers = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': 'wfsync-action',
  };
  const resolve = (path) => (path.startsWith('http') ? new URL(path) : new URL(path.slice(1), root));
  const request = (method, path, body) =>
    fetch(resolve(path), {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify({ body }),
    });
  const check = async (response, what) => {
    if (response.ok) return response;
    if (response.status === 403 || response.status === 404)
      throw new CommentForbidden(`${what}: ${response.status}`);
    throw new Error(`${what}: GitHub answered ${response.status}`);
  };
  return {
    request,
    async send(method, path, body) {
      const response = await check(await request(method, path, body), `${method} comment`);
      return response.json();
    },
    async list(path) {
      const all = [];
      let next = resolve(path);
      for (let page = 0; next !== undefined && page < MAX_PAGES; page++) {
        const response = await check(await request('GET', next.href), 'list comments');
        const items = await response.json();
        if (Array.isArray(items)) all.push(...items);
        next = nextPage(response.headers.get('link'), root);
      }
      return all;
    },
  };
}

/** The `rel="next"` URL of a Link header, only on the API's own origin. */
function nextPage(link, root) {
  const found = /<([^>]+)>;\s*rel="next"/.exec(link ?? '');
  if (!found) return undefined;
  const url = new URL(found[1]);
  if (url.origin !== root.origin)
    throw new Error('list comments: the next page is on another host; not following it');
  return url;
}
