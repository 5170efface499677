import { describe, expect, it } from 'vitest';
import { sanitizeOutput } from '../../../../src/report/channel.js';
import { capAnnotations } from '../../../../src/report/github.js';
import { renderPlanGithub } from '../../../../src/report/plan/github.js';
import { renderPlanHuman } from '../../../../src/report/plan/human.js';
import type { AnnotationKind } from '../../../../src/report/plan/view.js';
import { change, diagnostic, item, planOf } from './fixture-plan.js';

const options = { command: 'plan' } as const;
const commands = (text: string) => text.split('\n').filter((l) => l.startsWith('::'));

/** `count` field changes: `f0: 0 → 1`, `f1: 1 → 2`… */
const changes = (count: number) =>
  Array.from({ length: count }, (_, i) => change(`f${i}`, `/f${i}`, i, i + 1));

const driftedWith = (count: number) =>
  commands(
    renderPlanGithub(planOf([item('w', 'drifted', { changes: changes(count), next: 'Fix.' })]), options),
  );

const HEAD = '::warning file=workflows/w.yaml,title=wfsync plan (drifted)::w: drifted';

describe('one annotation per entry: field changes', () => {
  it.each([
    [0, `${HEAD}%0ANext: Fix.`],
    [1, `${HEAD}%0Af0: 0 → 1%0ANext: Fix.`],
    [4, `${HEAD}%0Af0: 0 → 1%0Af1: 1 → 2%0Af2: 2 → 3%0Af3: 3 → 4%0ANext: Fix.`],
    [5, `${HEAD}%0Af0: 0 → 1%0Af1: 1 → 2%0Af2: 2 → 3%0Af3: 3 → 4%0Af4: 4 → 5%0ANext: Fix.`],
    [
      6,
      `${HEAD}%0Af0: 0 → 1%0Af1: 1 → 2%0Af2: 2 → 3%0Af3: 3 → 4%0Af4: 4 → 5%0A… and 1 more changes (see the log)%0ANext: Fix.`,
    ],
    [
      20,
      `${HEAD}%0Af0: 0 → 1%0Af1: 1 → 2%0Af2: 2 → 3%0Af3: 3 → 4%0Af4: 4 → 5%0A… and 15 more changes (see the log)%0ANext: Fix.`,
    ],
  ])('quotes at most 5 of %i changes and counts the rest', (count, expected) => {
    expect(driftedWith(count)).toEqual([expected]);
  });

  it('lists every change in the log below, even those the annotation only counts', () => {
    const out = renderPlanGithub(planOf([item('w', 'drifted', { changes: changes(20) })]), options);
    expect(out).toContain('f19: 19 → 20');
  });
});

describe('one annotation per entry: file, message and next step', () => {
  it('leaves out an empty file and an empty next step', () => {
    const plan = planOf([
      item('a', 'conflict', { file: '', next: '' }),
      item('b', 'create', { file: '', next: undefined }),
    ]);
    expect(commands(renderPlanGithub(plan, options))).toEqual([
      '::warning title=wfsync plan (conflict)::a: conflict',
      '::notice title=wfsync plan (create)::b: create',
    ]);
  });

  it('keeps the error message, its line breaks and tabs escaped, before the changes and the next step', () => {
    const plan = planOf([
      item('e', 'error', {
        error: 'GET failed: 503\r\nretry\tlater \x1b[31mred',
        changes: changes(1),
        next: 'Run it again.',
      }),
    ]);
    const text = sanitizeOutput(renderPlanGithub(plan, options), { color: false, actions: false });
    expect(commands(text)).toEqual([
      '::error file=workflows/e.yaml,title=wfsync plan (error)::e: error%0AGET failed: 503%0D%0Aretry\tlater ␛[31mred%0Af0: 0 → 1%0ANext: Run it again.',
    ]);
  });

  it('cuts a message past 1000 characters, and keeps one of exactly 1000', () => {
    const annotate = (error: string) =>
      commands(renderPlanGithub(planOf([item('e', 'error', { error, next: undefined })]), options));
    const head = '::error file=workflows/e.yaml,title=wfsync plan (error)::e: error%0A';
    expect(annotate('x'.repeat(1000))).toEqual([`${head}${'x'.repeat(1000)}`]);
    expect(annotate('x'.repeat(1001))).toEqual([`${head}${'x'.repeat(999)}…`]);
  });

  it('follows each entry with one annotation per diagnostic, of the kind its severity calls for', () => {
    const plan = planOf([
      item('d', 'error', {
        next: undefined,
        diagnostics: [
          diagnostic({ severity: 'error', code: 'e1', message: 'E' }),
          diagnostic({ severity: 'warning', code: 'w1', message: 'W' }),
          diagnostic({ severity: 'info', code: 'i1', message: 'I', file: '' }),
        ],
      }),
    ]);
    expect(commands(renderPlanGithub(plan, options))).toEqual([
      '::error file=workflows/d.yaml,title=wfsync plan (error)::d: error',
      '::error file=workflows/payment-failed.yaml,line=14,col=18,endLine=14,endColumn=31,title=wfsync (e1)::E',
      '::warning file=workflows/payment-failed.yaml,line=14,col=18,endLine=14,endColumn=31,title=wfsync (w1)::W',
      '::notice title=wfsync (i1)::I',
    ]);
  });
});

describe('the log after the annotations', () => {
  const plan = planOf([item('w', 'drifted', { changes: changes(1), next: 'Fix.' })]);

  it.each([
    [true, true],
    [false, false],
    [undefined, false],
  ])(
    'is the human output without color (showIgnored: %s lists the ignored fields: %s)',
    (showIgnored, listed) => {
      const out = renderPlanGithub(plan, { command: 'plan', showIgnored });
      const human = renderPlanHuman(plan, { color: false, command: 'plan', showIgnored });
      expect(out).toBe(`${commands(out).join('\n')}\n${human}`);
      expect(out).not.toContain('\x1b');
      expect(out.includes('Ignored (server-managed, never compared): _id, _environmentId')).toBe(listed);
    },
  );
});

describe('capAnnotations', () => {
  type Annotation = { kind: AnnotationKind; text: string };
  const of = (kind: AnnotationKind, count: number): Annotation[] =>
    Array.from({ length: count }, (_, i) => ({ kind, text: `${kind}-${i}` }));
  // As plan and sync use it: the texts kept, then the counting notice.
  const cap = (all: Annotation[]) => {
    const { shown, notice } = capAnnotations(all, {
      kindOf: (a) => a.kind,
      kinds: ['error', 'warning', 'notice'],
      where: 'the log',
    });
    return [...shown.map((a) => a.text), ...notice];
  };
  const texts = (kind: string, count: number) => Array.from({ length: count }, (_, i) => `${kind}-${i}`);

  it('keeps everything, with no counting notice, at exactly 10 of each kind', () => {
    const all = [...of('error', 10), ...of('warning', 10), ...of('notice', 10)];
    expect(cap(all)).toEqual(all.map((a) => a.text));
  });

  it('keeps nothing extra for no annotations', () => {
    expect(cap([])).toEqual([]);
  });

  it('when only errors overflow, keeps 10 errors and 9 notices, and one notice counts the rest', () => {
    const all = [...of('notice', 10), ...of('error', 11), ...of('warning', 10)];
    expect(cap(all)).toEqual([
      ...texts('notice', 9),
      ...texts('error', 10),
      ...texts('warning', 10),
      '::notice::1 more error and 1 more notice not shown as annotations; see the log',
    ]);
  });

  it('when only warnings overflow, with few notices, drops no notice', () => {
    const all = [...of('warning', 25), ...of('notice', 9)];
    expect(cap(all)).toEqual([
      ...texts('warning', 10),
      ...texts('notice', 9),
      '::notice::15 more warnings not shown as annotations; see the log',
    ]);
  });

  it('when only notices overflow, keeps 9 of them in their order', () => {
    const all = [...of('notice', 11), ...of('error', 1)];
    expect(cap(all)).toEqual([
      ...texts('notice', 9),
      'error-0',
      '::notice::2 more notices not shown as annotations; see the log',
    ]);
  });

  it('counts every kind that lost annotations, in the order error, warning, notice', () => {
    const all = [...of('notice', 12), ...of('warning', 13), ...of('error', 14)];
    expect(cap(all)).toEqual([
      ...texts('notice', 9),
      ...texts('warning', 10),
      ...texts('error', 10),
      '::notice::4 more errors, 3 more warnings and 3 more notices not shown as annotations; see the log',
    ]);
  });
});
