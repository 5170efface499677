import type { Driver } from './driver.js';

/**
 * The team day's second half: the changes API and promotion of what the first half wrote (A edited, B active,
 * C to be deleted), Production reads, re-promotion after more edits, a promoted delete, a Production PUT.
 */

// biome-ignore lint/suspicious/noExplicitAny: scenarios read deep into JSON bodies
type Json = any;

/** The names of a list's workflows, sorted. */
export const names = (body: Json): string[] => (body?.data ?? []).map((w: Json) => w.name).sort();
/** A listed change without its diff and its author's display name (neither fixed by the contract). */
const listedChange = ({ change: _diff, user, ...rest }: Json) => ({ ...rest, user: { _id: user?._id } });
const changeList = (body: Json) => ({ ...body, data: body?.data?.map(listedChange) });
/** An applied change without its diff. */
const appliedChange = ({ change: _diff, ...rest }: Json) => rest;

export async function runPromotion(d: Driver, { a, b, c }: Record<'a' | 'b' | 'c', Json>): Promise<void> {
  const workflows = '/v1/workflows';
  await d.call('changes: promoted missing', 'GET', '/v1/changes');
  const pending = await d.call('changes: pending', 'GET', '/v1/changes?promoted=false&page=0&limit=10', {
    record: changeList,
  });
  await d.call('changes: count', 'GET', '/v1/changes/count');
  const changeOf = (id: string) => pending.data.find((ch: Json) => ch._entityId === id)._id;
  const byId = new Map<string, string>([a, b, c].map((w: Json) => [w._id, w.name]));
  d.fact(
    'changes: one pending change per workflow',
    pending.data.map((ch: Json) => byId.get(ch._entityId) ?? 'the deleted duplicate').sort(),
  );
  await d.call('apply: Production key', 'POST', `/v1/changes/${changeOf(a._id)}/apply`, { key: 'prod' });
  const applied = await d.call('apply A', 'POST', `/v1/changes/${changeOf(a._id)}/apply`, {
    record: (body: Json) => ({ data: body.data.map(appliedChange) }),
  });
  d.fact('apply: the change comes last', applied.data.at(-1)._entityId === a._id);
  await d.call('changes: count after one', 'GET', '/v1/changes/count');
  const production = await d.call('list Production', 'GET', `${workflows}?page=0&limit=10`, { key: 'prod' });
  const copy = production.data.find((w: Json) => w._parentId === a._id);
  d.fact('promotion: a new _id pointing at Development', copy !== undefined && copy._id !== a._id);
  d.fact(
    'promotion: steps point at Production templates',
    copy.steps.map(
      (s: Json) => s.template._environmentId === copy._environmentId && s._templateId === s.template._id,
    ),
  );
  await d.call('get the Production copy', 'GET', `${workflows}/${copy._id}`, { key: 'prod' });
  const rest = pending.data.map((ch: Json) => ch._id).filter((id: string) => id !== changeOf(a._id));
  await d.call('bulk apply the rest', 'POST', '/v1/changes/bulk/apply', {
    json: { changeIds: [...rest].reverse().concat('0123456789abcdef01234567') },
    record: (body: Json) => ({ data: body.data.map((list: Json[]) => list.map(appliedChange)) }),
  });
  await d.call('changes: count after all', 'GET', '/v1/changes/count');
  await d.call('changes: promoted', 'GET', '/v1/changes?promoted=true&page=0&limit=10', {
    record: changeList,
  });
  await d.call('apply twice', 'POST', `/v1/changes/${changeOf(a._id)}/apply`, { record: 'status' });
  const all = await d.call('list Production after bulk', 'GET', `${workflows}?page=0&limit=10`, {
    key: 'prod',
  });
  d.fact('Production holds copies of', names(all));
  await d.call('get B in Production by identifier', 'GET', `${workflows}/password-reset`, { key: 'prod' });

  // An edit after promotion folds into a new pending change; applying overwrites the same Production copy.
  await d.call('edit A again', 'PUT', `${workflows}/${a._id}`, { json: { description: 'Second edit' } });
  await d.call('edit A once more', 'PUT', `${workflows}/${a._id}`, { json: { tags: ['again'] } });
  const again = await d.call('changes: after edits', 'GET', '/v1/changes?promoted=false&page=0&limit=10', {
    record: changeList,
  });
  await d.call('apply the edits', 'POST', '/v1/changes/bulk/apply', {
    json: { changeIds: again.data.map((ch: Json) => ch._id) },
    record: 'status',
  });
  const overwritten = await d.call('get the Production copy again', 'GET', `${workflows}/${copy._id}`, {
    key: 'prod',
  });
  d.fact('promotion: the same copy overwritten', overwritten.data?._id === copy._id);
  d.fact(
    'promotion: the same Production templates overwritten',
    overwritten.data?.steps.map((s: Json) => s._templateId).join() ===
      copy.steps.map((s: Json) => s._templateId).join(),
  );

  // A deleted Development workflow deletes its Production copy when its change is applied.
  await d.call('delete C (twin)', 'DELETE', `/v1/notification-templates/${c._id}`);
  const deletion = await d.call('changes: the delete', 'GET', '/v1/changes?promoted=false&page=0&limit=10', {
    record: changeList,
  });
  await d.call('apply the delete', 'POST', `/v1/changes/${deletion.data[0]._id}/apply`, { record: 'status' });
  await d.call('Production after the delete', 'GET', `${workflows}?page=0&limit=10`, {
    key: 'prod',
    record: (body: Json) => names(body),
  });
  // No guard on PUT: a Production key may edit the Production copy (the next promotion overwrites it).
  const bCopy = all.data.find((w: Json) => w._parentId === b._id);
  await d.call('update the Production copy', 'PUT', `${workflows}/${bCopy._id}`, {
    key: 'prod',
    json: { description: 'edited in Production' },
  });
  await d.call('Production changes count', 'GET', '/v1/changes/count', { key: 'prod' });
  await d.call('Production changes', 'GET', '/v1/changes?promoted=false&page=0&limit=10', {
    key: 'prod',
    record: changeList,
  });
  await d.call('Development changes count after', 'GET', '/v1/changes/count');
  await d.call('the deleted copy by identifier', 'GET', `${workflows}/weekly-digest`, { key: 'prod' });
}
