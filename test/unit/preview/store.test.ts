import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject } from '../../../src/config/project.js';
import { answerRender } from '../../../src/preview/api.js';
import { PreviewStore } from '../../../src/preview/store.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const SMS = (text: string) => `name: sms only
steps:
  - name: text
    template:
      type: sms
      content: { file: ./sms.txt }
  - name: other
    template:
      type: push
      title: Hi
      content: "${text} {{name}}"
triggers:
  - type: event
    identifier: sms-only
    variables:
      - { name: name, type: String }
`;

const tempProject = useTempProjects('wfsync-serve-');

async function storeIn(files: Record<string, string>): Promise<{ dir: string; store: PreviewStore }> {
  const dir = tempProject(files);
  const store = new PreviewStore({ cwd: dir, project: readProject({}, dir), paths: [] });
  await store.load();
  return { dir, store };
}

const render = (store: PreviewStore, body: object) => answerRender(store, JSON.stringify(body));

describe('PreviewStore', () => {
  it('re-checks the definitions an included file belongs to, and nothing else', async () => {
    const { dir, store } = await storeIn({
      'workflows/sms.yaml': SMS('Push'),
      'workflows/sms.txt': 'Text {{name}}',
      'workflows/other.yaml': SMS('Other').replace('sms only', 'other one').replace('sms-only', 'other-one'),
    });
    expect(store.list().map((w) => [w.file, w.identifier, w.broken])).toEqual([
      ['workflows/other.yaml', 'other-one', false],
      ['workflows/sms.yaml', 'sms-only', false],
    ]);
    writeFileSync(join(dir, 'workflows/sms.txt'), 'Changed {{name}}');
    expect(await store.refresh([join(dir, 'workflows/sms.txt')])).toEqual([
      'workflows/other.yaml',
      'workflows/sms.yaml',
    ]);
    const answer = render(store, { file: 'workflows/sms.yaml', payload: { name: 'Bo' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      broken: false,
      workflow: { steps: [{ content: 'Changed Bo' }, { content: 'Push Bo' }] },
    });
  });

  it('keeps a broken file listed with its last steps and its errors, and brings it back when fixed', async () => {
    const { dir, store } = await storeIn({ 'workflows/sms.yaml': SMS('Push'), 'workflows/sms.txt': 'Text' });
    const file = join(dir, 'workflows/sms.yaml');
    writeFileSync(file, SMS('Push').replace('  - name: other', '  - name: [broken'));
    expect(await store.refresh([file])).toEqual(['workflows/sms.yaml']);
    const broken = store.get('workflows/sms.yaml');
    expect(broken?.broken).toBe(true);
    expect(broken?.steps.map((s) => s.name)).toEqual(['text', 'other']);
    expect(broken?.diagnostics[0]).toMatchObject({ file: 'workflows/sms.yaml', severity: 'error' });
    expect(render(store, { file: 'workflows/sms.yaml' }).body).toMatchObject({ broken: true });
    writeFileSync(file, SMS('Fixed'));
    await store.refresh([file]);
    expect(store.get('workflows/sms.yaml')?.broken).toBe(false);
    expect(render(store, { file: 'workflows/sms.yaml' }).body).toMatchObject({
      workflow: { steps: [{}, { content: expect.stringMatching(/^Fixed /) }] },
    });
  });

  it('reads the named previews next to a definition, and again when that file changes', async () => {
    const { dir, store } = await storeIn({
      'workflows/sms.yaml': SMS('Push'),
      'workflows/sms.txt': 'Text {{name}}',
    });
    const previews = join(dir, 'workflows/sms.previews.json');
    writeFileSync(previews, JSON.stringify({ previews: { bo: { payload: { name: 'Bo' } } } }));
    expect(await store.refresh([previews])).toEqual(['workflows/sms.yaml']);
    expect([...(store.get('workflows/sms.yaml')?.previews.keys() ?? [])]).toEqual(['bo']);
    expect(render(store, { file: 'workflows/sms.yaml', preview: 'bo' }).body).toMatchObject({
      workflow: { preview: 'bo', steps: [{ content: 'Text Bo' }, { content: 'Push Bo' }] },
    });
  });

  it('answers a bad render request with 400 or 404, never a stack', async () => {
    const { store } = await storeIn({ 'workflows/sms.yaml': SMS('Push'), 'workflows/sms.txt': 'Text' });
    expect(answerRender(store, '{nope').status).toBe(400);
    expect(render(store, { file: '../etc/passwd' })).toEqual({
      status: 404,
      body: { error: 'no such workflow file' },
    });
    expect(render(store, { file: 'workflows/sms.yaml', payload: [1] })).toEqual({
      status: 400,
      body: { error: 'the payload must be a JSON object' },
    });
  });

  it('reloadProject: the config as it now is (severities, workflowsDir): every file checked again, both lists named', async () => {
    const { dir, store } = await storeIn({
      'wfsync.config.yaml': 'workflowsDir: workflows\n',
      'workflows/sms.yaml': SMS('Push'),
      'workflows/sms.txt': 'Text {{subscriber.nickname}}',
    });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'more'));
    writeFileSync(join(dir, 'more/sms.yaml'), SMS('Moved'));
    writeFileSync(join(dir, 'more/sms.txt'), 'Text');
    expect(store.roots).toEqual([join(dir, 'workflows'), join(dir, 'wfsync.config.yaml')]);
    expect(store.configFile).toBe(join(dir, 'wfsync.config.yaml'));
    const codes = () => {
      const answer = render(store, { file: 'workflows/sms.yaml' });
      return answer.status === 200 ? (answer.body.workflow?.diagnostics ?? []).map((d) => d.code) : [];
    };
    expect(codes()).toContain('render-empty');

    writeFileSync(join(dir, 'wfsync.config.yaml'), 'workflowsDir: workflows\nrules:\n  render-empty: off\n');
    const version = store.version;
    expect(await store.reloadProject(readProject({}, dir))).toEqual(['workflows/sms.yaml']);
    expect(store.version).toBe(version + 1);
    expect(codes()).not.toContain('render-empty');

    writeFileSync(join(dir, 'wfsync.config.yaml'), 'workflowsDir: more\n');
    expect(await store.reloadProject(readProject({}, dir))).toEqual(['more/sms.yaml', 'workflows/sms.yaml']);
    expect(store.list().map((w) => w.file)).toEqual(['more/sms.yaml']);
    expect(store.roots).toEqual([join(dir, 'more'), join(dir, 'wfsync.config.yaml')]);
  });
});
