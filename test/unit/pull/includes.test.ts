import { describe, expect, it } from 'vitest';
import type { Json } from '../../../src/json.js';
import { buildPulledIncludes, type ExistingInclude, type SplitContent } from '../../../src/pull/includes.js';

const workflow = (...steps: unknown[]): Json => ({ name: 'w', steps, triggers: [] });
const step = (type: string, fields: Json, name?: string): Json => ({
  ...(name === undefined ? {} : { name }),
  template: { type, ...fields },
});
const include = (pointer: string, path: string, text: string, shared = false): ExistingInclude => ({
  pointer,
  path,
  text,
  shared,
});
const ref = (file: string) => ({ file });
const CONTENT = (i: number) => `/steps/${i}/template/content`;
const split = (maxLines: number, ...taken: string[]): SplitContent => ({
  maxLines,
  baseName: 'wf',
  taken: (path) => taken.includes(path),
});
const LONG = 'a\nb\nc';

describe('buildPulledIncludes: existing references', () => {
  it('one file for two fields with one text is written once and referred to twice', () => {
    const pulled = workflow(step('sms', { content: 'new' }, 'a'), step('sms', { content: 'new' }, 'b'));
    const result = buildPulledIncludes({
      pulled,
      existing: pulled,
      includes: [include(CONTENT(0), './t.txt', 'old'), include(CONTENT(1), 'x/../t.txt', 'old')],
    });
    expect(result).toEqual({
      definition: workflow(
        step('sms', { content: ref('./t.txt') }, 'a'),
        step('sms', { content: ref('x/../t.txt') }, 'b'),
      ),
      writes: [{ pointer: CONTENT(0), path: './t.txt', text: 'new' }],
      kept: [
        { pointer: CONTENT(0), text: 'new' },
        { pointer: CONTENT(1), text: 'new' },
      ],
      inlined: [],
    });
  });

  it.each<[string, string, string]>([
    ['the same path spelt with ./', './t.txt', 't.txt'],
    ['a step into a folder and back out', 'x/../t.txt', './t.txt'],
    ['doubled slashes', 'x//t.txt', './x/t.txt'],
    ['up twice from a folder', 'x/../../t.txt', '../t.txt'],
    ['up twice', '../../t.txt', '../x/../../t.txt'],
  ])('%s: one file, so a second text for it is written inline', (_what, first, second) => {
    const pulled = workflow(step('sms', { content: 'one' }), step('sms', { content: 'two' }));
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), first, 'old'), include(CONTENT(1), second, 'old')],
    });
    expect(result.inlined).toEqual([
      { pointer: CONTENT(1), path: second, reason: `${second} also holds another field, with other text` },
    ]);
    expect(result.writes).toEqual([{ pointer: CONTENT(0), path: first, text: 'one' }]);
  });

  it.each<[string, string, string]>([
    ['other folders', 'a/t.txt', 'b/t.txt'],
    ['up from one folder, not another', '../a/t.txt', 'a/t.txt'],
    ['up twice and up once', '../../t.txt', '../t.txt'],
    ['up twice and here', '../../t.txt', 't.txt'],
    ['a folder and a longer name', 'a/b.txt', 'ab.txt'],
  ])('%s: two files', (_what, first, second) => {
    const pulled = workflow(step('sms', { content: 'one' }), step('sms', { content: 'two' }));
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), first, 'old'), include(CONTENT(1), second, 'old')],
    });
    expect(result.inlined).toEqual([]);
    expect(result.writes.map((w) => w.path)).toEqual([first, second]);
  });

  it('a second field that reads its file unchanged is not written again, nor are files already right', () => {
    const pulled = workflow(step('sms', { content: 'same' }), step('sms', { content: 'same' }));
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), './t.txt', 'same'), include(CONTENT(1), './t.txt', 'same')],
    });
    expect(result.writes).toEqual([]);
    expect(result.kept).toHaveLength(2);
  });

  it.each<[string, Json | undefined, Json, string | undefined]>([
    ['no existing definition: any step', undefined, step('sms', { content: 'x' }, 'b'), undefined],
    [
      'the same name and type',
      step('sms', { content: 'o' }, 'a'),
      step('sms', { content: 'x' }, 'a'),
      undefined,
    ],
    ['a name only in the file', step('sms', { content: 'o' }, 'a'), step('sms', { content: 'x' }), undefined],
    [
      'a name only on the service',
      step('sms', { content: 'o' }),
      step('sms', { content: 'x' }, 'a'),
      undefined,
    ],
    ['another name', step('sms', { content: 'o' }, 'a'), step('sms', { content: 'x' }, 'b'), 'other'],
    ['another type', step('sms', { content: 'o' }, 'a'), step('chat', { content: 'x' }, 'a'), 'other'],
    ['no template in the file', { template: null }, step('sms', { content: 'x' }), 'other'],
  ])('telling steps apart: %s', (_what, before, after, reason) => {
    const pulled = workflow(after);
    const result = buildPulledIncludes({
      pulled,
      existing: before === undefined ? undefined : workflow(before),
      includes: [include(CONTENT(0), './t.txt', 'o')],
    });
    const why = reason && 'the step in that position is another one on the service';
    expect(result.inlined).toEqual(why ? [{ pointer: CONTENT(0), path: './t.txt', reason: why }] : []);
  });

  it('a step the file does not have is another step', () => {
    const pulled = workflow(step('sms', { content: 'x' }), step('sms', { content: 'y' }));
    const result = buildPulledIncludes({
      pulled,
      existing: workflow(step('sms', { content: 'x' })),
      includes: [include(CONTENT(1), './t.txt', 'y')],
    });
    expect(result.inlined).toEqual([
      {
        pointer: CONTENT(1),
        path: './t.txt',
        reason: 'the step in that position is another one on the service',
      },
    ]);
  });

  it('a variant is told apart by its own name and type', () => {
    const variant = (name: string) => ({ name: 's', variants: [step('sms', { content: 'x' }, name)] });
    const pointer = '/steps/0/variants/0/template/content';
    const same = buildPulledIncludes({
      pulled: workflow(variant('v')),
      existing: workflow(variant('v')),
      includes: [include(pointer, './t.txt', 'x')],
    });
    expect(same.inlined).toEqual([]);
    const other = buildPulledIncludes({
      pulled: workflow(variant('v')),
      existing: workflow(variant('w')),
      includes: [include(pointer, './t.txt', 'x')],
    });
    expect(other.inlined.map((i) => i.pointer)).toEqual([pointer]);
  });

  it('text a file cannot keep and blocks are written inline, and not split out either', () => {
    const pulled = workflow(
      step('email', { content: `${LONG}\r\n` }),
      step('email', { content: [{ type: 'text' }] }),
    );
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), './a.html', 'x'), include(CONTENT(1), './b.html', 'y')],
      split: split(1),
    });
    expect(result).toEqual({
      definition: pulled,
      writes: [],
      kept: [],
      inlined: [
        {
          pointer: CONTENT(0),
          path: './a.html',
          reason: 'the text holds carriage returns or a byte order mark, which a file would not keep',
        },
        { pointer: CONTENT(1), path: './b.html', reason: 'the service holds blocks there, not text' },
      ],
    });
  });

  it('a byte order mark cannot go into a file either', () => {
    const result = buildPulledIncludes({
      pulled: workflow(step('sms', { content: '\uFEFFx' })),
      includes: [include(CONTENT(0), './a.txt', 'x')],
    });
    expect(result.inlined.map((i) => i.reason)).toEqual([
      'the text holds carriage returns or a byte order mark, which a file would not keep',
    ]);
  });

  it('a shared file whose text changed is written inline, and not split out to a new file', () => {
    const pulled = workflow(step('sms', { content: LONG }));
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), './a.txt', 'old', true)],
      split: split(1),
    });
    expect(result).toEqual({
      definition: pulled,
      writes: [],
      kept: [],
      inlined: [
        { pointer: CONTENT(0), path: './a.txt', reason: './a.txt is also used by another definition' },
      ],
    });
  });
});

describe('buildPulledIncludes: --split-content', () => {
  it.each<[string, Json, SplitContent, Array<[string, string]>]>([
    ['exactly n lines stay inline', step('sms', { content: LONG }), split(3), []],
    ['n + 1 lines go to a file', step('sms', { content: LONG }), split(2), [[CONTENT(0), './wf.step-1.txt']]],
    ['email content is html', step('email', { content: LONG }), split(2), [[CONTENT(0), './wf.step-1.html']]],
    [
      'email subject and title are text',
      step('email', { subject: LONG, title: LONG }),
      split(2),
      [
        ['/steps/0/template/subject', './wf.step-1.subject.txt'],
        ['/steps/0/template/title', './wf.step-1.title.txt'],
      ],
    ],
    [
      'push title',
      step('push', { title: LONG }),
      split(2),
      [['/steps/0/template/title', './wf.step-1.title.txt']],
    ],
    [
      'a taken name gets -2',
      step('sms', { content: LONG }),
      split(2, './wf.step-1.txt'),
      [[CONTENT(0), './wf.step-1-2.txt']],
    ],
    [
      'and -3 after that',
      step('sms', { content: LONG }),
      split(2, './wf.step-1.txt', './wf.step-1-2.txt'),
      [[CONTENT(0), './wf.step-1-3.txt']],
    ],
    [
      'the step name, as a slug',
      step('sms', { content: LONG }, ' Hello, World! '),
      split(2),
      [[CONTENT(0), './wf.hello-world.txt']],
    ],
    [
      'a long name cut to 40 characters, then trimmed',
      step('sms', { content: LONG }, `${'a'.repeat(39)} b`),
      split(2),
      [[CONTENT(0), `./wf.${'a'.repeat(39)}.txt`]],
    ],
    [
      'a name of no letters',
      step('sms', { content: LONG }, '!!!'),
      split(2),
      [[CONTENT(0), './wf.step-1.txt']],
    ],
    [
      'capitals and digits',
      step('sms', { content: LONG }, 'SMS 2'),
      split(2),
      [[CONTENT(0), './wf.sms-2.txt']],
    ],
    [
      'variants, named and not',
      { name: 'Main', variants: [step('sms', { content: LONG }), step('sms', { content: LONG }, 'VIP')] },
      split(2),
      [
        ['/steps/0/variants/0/template/content', './wf.main.variant-1.txt'],
        ['/steps/0/variants/1/template/content', './wf.main.vip.txt'],
      ],
    ],
    ['blocks are not text', step('email', { content: [{ type: 'text', content: LONG }] }), split(0), []],
    ['no template', { name: 'x', template: LONG }, split(0), []],
  ])('%s', (_what, first, options, expected) => {
    const result = buildPulledIncludes({ pulled: workflow(first), includes: [], split: options });
    expect(result.writes.map((w) => [w.pointer, w.path])).toEqual(expected);
    expect(result.kept.map((k) => k.pointer)).toEqual(expected.map(([pointer]) => pointer));
  });

  it('steps get their position in the name, and files split in one pull do not collide', () => {
    const pulled = workflow(
      step('sms', { content: LONG }),
      null,
      step('sms', { content: LONG }),
      step('sms', { content: LONG }, 'step-3'),
    );
    const result = buildPulledIncludes({ pulled, includes: [], split: split(2) });
    expect(result).toEqual({
      definition: workflow(
        step('sms', { content: ref('./wf.step-1.txt') }),
        null,
        step('sms', { content: ref('./wf.step-3.txt') }),
        step('sms', { content: ref('./wf.step-3-2.txt') }, 'step-3'),
      ),
      writes: [
        { pointer: CONTENT(0), path: './wf.step-1.txt', text: LONG },
        { pointer: CONTENT(2), path: './wf.step-3.txt', text: LONG },
        { pointer: CONTENT(3), path: './wf.step-3-2.txt', text: LONG },
      ],
      kept: [
        { pointer: CONTENT(0), text: LONG },
        { pointer: CONTENT(2), text: LONG },
        { pointer: CONTENT(3), text: LONG },
      ],
      inlined: [],
    });
  });

  it('a new file does not take the name of a file an existing reference writes', () => {
    const pulled = workflow(step('sms', { content: 'short' }), step('sms', { content: LONG }));
    const result = buildPulledIncludes({
      pulled,
      includes: [include(CONTENT(0), 'wf.step-2.txt', 'old')],
      split: split(2),
    });
    expect(result.writes.map((w) => w.path)).toEqual(['wf.step-2.txt', './wf.step-2-2.txt']);
  });

  it('no steps: nothing to split', () => {
    const pulled = { name: 'w', steps: 'none' };
    expect(buildPulledIncludes({ pulled, includes: [], split: split(0) })).toEqual({
      definition: pulled,
      writes: [],
      kept: [],
      inlined: [],
    });
  });
});
