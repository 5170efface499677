/**
 * `.gitlab/wfsync-mr-note.mjs`, which the plan job runs: put what `wfsync plan` printed (plan.md) in wfsync's earlier
 * note on the merge request, found by the plan's marker among the token owner's own notes, or in a new note unless
 * the plan found nothing to change. GitLab's notes API (`$CI_API_V4_URL`, pages of 100 followed by `X-Next-Page`),
 * authenticated with `PRIVATE-TOKEN`: a project access token in a masked variable (the job's own CI_JOB_TOKEN may not
 * write notes). Without the token the note is skipped with a line saying so. The token is never printed. Pure: this
 * builds the file's text.
 */
import { GITLAB_TOKEN_ENV } from './gitlab-scripts.js';

export const GITLAB_NOTE_SCRIPT_PATH = '.gitlab/wfsync-mr-note.mjs';

export function buildGitlabNoteScript(marker: string): string {
  return `// Upserts wfsync's plan note on a merge request (written by \`wfsync init --ci gitlab\`;
// see .gitlab/wfsync.gitlab-ci.yml). Usage: node ${GITLAB_NOTE_SCRIPT_PATH} plan.md <wfsync plan exit code>
import { readFileSync } from 'node:fs';

const marker = ${JSON.stringify(marker)};
const [file = 'plan.md', code = ''] = process.argv.slice(2);
const env = process.env;
const token = env.${GITLAB_TOKEN_ENV};
if (!token) {
  console.log(
    'wfsync: no ${GITLAB_TOKEN_ENV} variable: the plan is in this log and the plan.md artifact, not on the merge request. ' +
      'To get the note, add a project access token (role Reporter, scope api) as the masked CI/CD variable ${GITLAB_TOKEN_ENV}.',
  );
  process.exit(0);
}
const api = (env.CI_API_V4_URL ?? '').replace(/\\/+$/, '');
const project = env.CI_PROJECT_ID;
const mergeRequest = env.CI_MERGE_REQUEST_IID;
if (!api || !project || !mergeRequest) {
  console.error('wfsync: not a merge request pipeline (CI_API_V4_URL, CI_PROJECT_ID or CI_MERGE_REQUEST_IID is missing)');
  process.exit(1);
}

let body = '';
try {
  body = readFileSync(file, 'utf8');
} catch {}
if (!body.includes(marker)) {
  const log = env.CI_JOB_URL ? \`[the job log](\${env.CI_JOB_URL})\` : "this job's log";
  body = \`\${marker}\\n### wfsync plan failed\\n\\n\\\`wfsync plan\\\` exited \${code} without printing a plan: see \${log}.\\n\`;
}

async function call(method, path, payload) {
  const response = await fetch(api + path, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
    body: payload ? JSON.stringify(payload) : undefined,
  });
  if (!response.ok) {
    // The job log reads escape sequences (colours, log sections): the answer's text goes without controls.
    const detail = (await response.text()).slice(0, 300).replace(/[\\s\\p{Cc}]+/gu, ' ');
    throw new Error(\`\${method} \${path}: \${response.status} \${response.statusText} \${detail}\`.trim());
  }
  return response;
}

try {
  const notes = \`/projects/\${encodeURIComponent(project)}/merge_requests/\${encodeURIComponent(mergeRequest)}/notes\`;
  // Only the token's own note: anyone can write a note that contains the marker.
  const me = await (await call('GET', '/user')).json();
  if (!Number.isInteger(me?.id)) throw new Error('GET /user: the answer names no user id');
  let previous;
  let pages = 0;
  for (let page = '1'; page && !previous; ) {
    if (++pages > 100) throw new Error('the notes did not end after 100 pages');
    const response = await call('GET', \`\${notes}?sort=asc&order_by=created_at&per_page=100&page=\${page}\`);
    const list = await response.json();
    previous = list.find(
      (note) => !note.system && note.author?.id === me.id && typeof note.body === 'string' && note.body.includes(marker),
    );
    const next = response.headers.get('x-next-page') ?? '';
    page = /^\\d{1,9}$/.test(next) ? next : '';
  }
  if (previous) {
    await call('PUT', \`\${notes}/\${Number(previous.id)}\`, { body });
    console.log(\`wfsync: updated the plan note (\${Number(previous.id)}) on !\${mergeRequest}\`);
  } else if (code !== '0') {
    const created = await (await call('POST', notes, { body })).json();
    console.log(\`wfsync: wrote the plan note (\${Number(created.id)}) on !\${mergeRequest}\`);
  } else {
    console.log('wfsync: no changes and no earlier plan note: nothing to post.');
  }
} catch (error) {
  console.error(\`wfsync: could not write the merge request note: \${error.message}\`);
  process.exit(1);
}
`;
}
