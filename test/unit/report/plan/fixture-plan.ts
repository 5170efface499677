import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import type { SyncItemResult, SyncOutcome, SyncResult } from '../../../../src/apply/result.js';
import type { Diagnostic } from '../../../../src/diagnostic.js';
import type {
  FieldChange,
  Plan,
  PlanAction,
  PlanItem,
  PlanItemFields,
  PlanSummary,
} from '../../../../src/plan/types.js';
import { aPlanItem } from '../../../helpers/plan-item.js';

export const FIXTURES = new URL('../../../fixtures/report-plan/', import.meta.url);

export const TARGET = { name: 'staging', baseUrl: 'https://api.staging.example.com' };

/** A diff as the plan builds it: YAML of the service's projection against the file's, context 3. */
export function yamlDiff(name: string, file: string, actual: unknown, desired: unknown): string {
  return createTwoFilesPatch(
    `service: ${name}`,
    file,
    stringify(actual),
    stringify(desired),
    undefined,
    undefined,
    {
      context: 3,
    },
  );
}

export function change(path: string, pointer: string, actual: unknown, desired: unknown): FieldChange {
  if (actual === undefined) return { pointer, path, kind: 'only-in-file', desired };
  if (desired === undefined) return { pointer, path, kind: 'only-on-service', actual };
  return { pointer, path, kind: 'changed', actual, desired };
}

const SUMMARY_KEY: Record<PlanAction, keyof PlanSummary> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  promote: 'promote',
  'in-sync': 'inSync',
  drifted: 'drifted',
  'changed-locally': 'changedLocally',
  'missing-remotely': 'missingRemotely',
  conflict: 'conflict',
  orphaned: 'orphaned',
  error: 'error',
};

export function planOf(items: PlanItem[], target = TARGET): Plan {
  const summary: PlanSummary = {
    create: 0,
    update: 0,
    delete: 0,
    promote: 0,
    inSync: 0,
    drifted: 0,
    changedLocally: 0,
    missingRemotely: 0,
    conflict: 0,
    orphaned: 0,
    error: 0,
  };
  for (const item of items) summary[SUMMARY_KEY[item.action]]++;
  return {
    version: 1,
    target,
    items,
    summary,
    ignoredFields: ['_id', '_environmentId', '_organizationId', 'createdAt', 'updatedAt', '__v'],
  };
}

export function item(identifier: string, action: PlanAction, fields: Partial<PlanItemFields> = {}): PlanItem {
  return aPlanItem(identifier, action, {
    file: `workflows/${identifier}.yaml`,
    next: 'Nothing to do.',
    ...fields,
  });
}

const welcomeService = { critical: true, steps: [{ template: { type: 'in_app', content: 'Hi {{name}}!' } }] };
const welcomeFile = {
  critical: false,
  steps: [{ template: { type: 'in_app', content: 'Welcome, {{name}}!' } }],
};
const invoiceService = { name: 'Invoice paid', steps: [{ template: { type: 'email', subject: 'Paid' } }] };
const invoiceFile = {
  name: 'Invoice paid',
  description: 'Sent when Stripe confirms a payment',
  steps: [{ template: { type: 'email', subject: 'Invoice {{invoice.number}} paid' } }],
};
const replyService = {
  steps: [{ template: { type: 'in_app', content: 'New reply' } }, { template: { type: 'email' } }],
};
const replyFile = { steps: [{ template: { type: 'in_app', content: 'New reply' } }] };

/** A fixed plan with every action, in the order buildPlan sorts (by identifier, orphaned last). */
export function buildFixturePlan(): Plan {
  return planOf([
    item('comment-reply', 'conflict', {
      name: 'Comment reply',
      remoteId: '65f1c0ffee00000000000003',
      changes: [change('steps[1]', '/steps/1', { template: { type: 'email' } }, undefined)],
      diff: yamlDiff('Comment reply', 'workflows/comment-reply.yaml', replyService, replyFile),
      next: 'The service already has "comment-reply" and it was not created from this file: run `wfsync pull comment-reply` to adopt the service\'s version, or rename the workflow.',
    }),
    item('invoice-paid', 'changed-locally', {
      name: 'Invoice paid',
      remoteId: '65f1c0ffee00000000000002',
      stateId: '65f1c0ffee00000000000002',
      changes: [
        change('description', '/description', undefined, 'Sent when Stripe confirms a payment'),
        change(
          'steps[0].template.subject',
          '/steps/0/template/subject',
          'Paid',
          'Invoice {{invoice.number}} paid',
        ),
      ],
      diff: yamlDiff('Invoice paid', 'workflows/invoice-paid.yaml', invoiceService, invoiceFile),
      next: 'The file changed since the workflow was created and the API cannot update it: apply the change in the dashboard, or create it under a new name.',
    }),
    item('order-shipped', 'create', {
      name: 'Order shipped',
      next: 'Run "wfsync sync" to create it.',
      body: { name: 'Order shipped', notificationGroupId: '65f1c0ffee000000000000aa', steps: [] },
    }),
    item('password-reset', 'in-sync', { remoteId: '65f1c0ffee00000000000004' }),
    item('payment-failed', 'error', {
      error: 'GET /v1/workflows/payment-failed failed: 503 Service Unavailable (after 3 attempts)',
      next: 'Run "wfsync plan" again; if the service keeps failing, check its status page.',
    }),
    item('trial-ending', 'missing-remotely', {
      stateId: '65f1c0ffee00000000000005',
      next: 'The service has no workflow 65f1c0ffee00000000000005 (deleted in the dashboard?): run `wfsync state forget trial-ending`, then `wfsync sync` creates it again.',
    }),
    item('weekly-digest', 'in-sync', { remoteId: '65f1c0ffee00000000000006' }),
    item('welcome', 'drifted', {
      name: 'Welcome',
      remoteId: '65f1c0ffee00000000000001',
      stateId: '65f1c0ffee00000000000001',
      changes: [
        change('critical', '/critical', true, false),
        change(
          'steps[0].template.content',
          '/steps/0/template/content',
          'Hi {{name}}!',
          'Welcome, {{name}}!',
        ),
      ],
      diff: yamlDiff('Welcome', 'workflows/welcome.yaml', welcomeService, welcomeFile),
      next: 'Someone changed the workflow on the service: change it back in the dashboard, or copy the change into the file with `wfsync pull welcome`.',
    }),
    item('legacy-promo', 'orphaned', {
      file: undefined,
      stateId: '65f1c0ffee00000000000007',
      next: 'No definition has this identifier any more and it cannot be deleted through the API: delete it in the dashboard, then `wfsync state forget legacy-promo`.',
    }),
  ]);
}

export function diagnostic(fields: Partial<Diagnostic> = {}): Diagnostic {
  return {
    file: 'workflows/payment-failed.yaml',
    line: 14,
    column: 18,
    endLine: 14,
    endColumn: 31,
    severity: 'error',
    code: 'service-rejected',
    message: 'Failed to extract variables: Parse error on line 1: expecting ID, got INVALID',
    pointer: '/steps/0/template/content',
    ...fields,
  };
}

export function syncOf(outcomes: SyncItemResult[], fields: Partial<SyncResult> = {}): SyncResult {
  const summary: Record<SyncOutcome, number> = {
    created: 0,
    updated: 0,
    deleted: 0,
    promoted: 0,
    'in-sync': 0,
    drifted: 0,
    'changed-locally': 0,
    'missing-remotely': 0,
    conflict: 0,
    orphaned: 0,
    failed: 0,
    skipped: 0,
  };
  for (const o of outcomes) summary[o.outcome]++;
  return {
    plan: buildFixturePlan(),
    outcomes,
    summary,
    interrupted: false,
    status: summary.failed > 0 ? 'failed' : 'ok',
    ...fields,
  };
}

/** A fixed sync result: one of every outcome, interrupted before the last create. */
export function buildFixtureSync(): SyncResult {
  const plan = buildFixturePlan();
  const fromPlan = (identifier: string, outcome: SyncOutcome): SyncItemResult => {
    const p: PlanItemFields = plan.items.find((i) => i.identifier === identifier)!;
    return {
      identifier,
      outcome,
      file: p.file,
      remoteId: p.remoteId,
      changes: p.changes,
      diff: p.diff,
      next: p.next,
    };
  };
  return syncOf(
    [
      fromPlan('comment-reply', 'conflict'),
      {
        identifier: 'invoice-paid',
        outcome: 'changed-locally',
        file: 'workflows/invoice-paid.yaml',
        next: 'Apply the change in the dashboard.',
      },
      {
        identifier: 'order-shipped',
        outcome: 'created',
        file: 'workflows/order-shipped.yaml',
        remoteId: '65f1c0ffee00000000000008',
        message: 'Created and verified.',
      },
      { identifier: 'password-reset', outcome: 'in-sync', file: 'workflows/password-reset.yaml' },
      {
        identifier: 'payment-failed',
        outcome: 'failed',
        file: 'workflows/payment-failed.yaml',
        message: 'The service rejected the definition (400 Bad Request).',
        diagnostics: [diagnostic()],
        next: 'Fix the template, then run "wfsync sync" again.',
      },
      {
        identifier: 'shipping-delayed',
        outcome: 'skipped',
        file: 'workflows/shipping-delayed.yaml',
        next: 'Run "wfsync sync" again to create it.',
      },
      fromPlan('trial-ending', 'missing-remotely'),
      { identifier: 'weekly-digest', outcome: 'in-sync', file: 'workflows/weekly-digest.yaml' },
      fromPlan('welcome', 'drifted'),
      fromPlan('legacy-promo', 'orphaned'),
    ],
    { plan, interrupted: true, status: 'failed' },
  );
}
