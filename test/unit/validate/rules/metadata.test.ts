import { describe, expect, it } from 'vitest';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

/** One step of `type`; metadata lines go under `metadata:` (line 7), the first field on line 8, column 7. */
function step(type: string, ...metadata: string[]): string {
  const head = `name: order shipped\nnotificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9\nsteps:\n  - name: s\n    template:\n      type: ${type}\n`;
  if (metadata.length === 0) return head;
  return `${head}    metadata:\n${metadata.map((line) => `      ${line}\n`).join('')}`;
}

const run = (text: string) => check(text + TRIGGER, {}, 'metadata-step-type').map(brief);
const error = (line: number, column: number, message: string) => ({
  code: 'metadata-step-type',
  severity: 'error',
  line,
  column,
  message,
});

describe('metadata-step-type', () => {
  it('accepts metadata that fits each step and metadata type', () => {
    expect(run(step('digest', 'type: regular', 'amount: 5', 'unit: minutes', 'digestKey: orderId'))).toEqual(
      [],
    );
    expect(
      run(
        step(
          'digest',
          'type: backoff',
          'amount: 5',
          'unit: minutes',
          'backoffAmount: 1',
          'backoffUnit: minutes',
        ),
      ),
    ).toEqual([]);
    expect(
      run(
        step(
          'digest',
          'type: timed',
          'amount: 1',
          'unit: weeks',
          'timed: {atTime: "09:30", weekDays: [monday]}',
        ),
      ),
    ).toEqual([]);
    expect(
      run(
        step(
          'digest',
          'type: timed',
          'amount: 1',
          'unit: months',
          'timed: {atTime: "09:00", monthlyType: on, ordinal: "1", ordinalValue: monday}',
        ),
      ),
    ).toEqual([]);
    expect(run(step('delay', 'type: regular', 'amount: 2', 'unit: hours'))).toEqual([]);
    expect(run(step('delay', 'type: scheduled', 'delayPath: sendAt'))).toEqual([]);
    expect(run(step('sms'))).toEqual([]);
  });

  it('reports metadata on a step type that takes none, at the metadata key', () => {
    expect(run(step('sms', 'amount: 5'))).toEqual([
      error(
        7,
        5,
        'steps[0].metadata is set on an sms step, but only digest and delay steps take metadata: remove it.',
      ),
    ]);
  });

  it('reports a digest or delay step without metadata, or without a metadata type', () => {
    expect(run(step('digest'))).toEqual([
      error(
        6,
        13,
        'steps[0] is a digest step without metadata: add steps[0].metadata with a type (regular, backoff or timed).',
      ),
    ]);
    expect(run(step('delay', 'amount: 5', 'unit: hours'))).toEqual([
      error(7, 5, 'steps[0].metadata needs a type (regular or scheduled).'),
    ]);
  });

  it('reports a metadata type of the other step kind', () => {
    expect(run(step('digest', 'type: scheduled', 'delayPath: at'))).toEqual([
      error(8, 13, 'steps[0].metadata.type "scheduled" is not a digest type: use regular, backoff or timed.'),
    ]);
  });

  it('reports each field that does not fit, at its key', () => {
    expect(run(step('delay', 'type: regular', 'amount: 5', 'unit: hours', 'digestKey: orderId'))).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.digestKey does not fit a regular delay (only digests use it): remove it.',
      ),
    ]);
    expect(run(step('delay', 'type: regular', 'amount: 5', 'unit: hours', 'delayPath: sendAt'))).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.delayPath does not fit a regular delay (only scheduled delays use it): remove it.',
      ),
    ]);
    expect(run(step('delay', 'type: scheduled', 'delayPath: sendAt', 'amount: 5'))).toEqual([
      error(
        10,
        7,
        'steps[0].metadata.amount does not fit a scheduled delay (a scheduled delay waits until the date at delayPath instead): remove it.',
      ),
    ]);
    expect(
      run(step('digest', 'type: regular', 'amount: 5', 'unit: hours', 'timed: {atTime: "10:00"}')),
    ).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.timed does not fit a regular digest (only timed digests use it): remove it.',
      ),
    ]);
    expect(run(step('digest', 'type: timed', 'amount: 5', 'unit: minutes', 'backoff: true'))).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.backoff does not fit a timed digest (only regular and backoff digests use it): remove it.',
      ),
    ]);
  });

  it('reports missing amounts, units and paths, one message per problem', () => {
    expect(run(step('delay', 'type: regular', 'amount: 5'))).toEqual([
      error(7, 5, 'steps[0].metadata needs `unit`: a regular delay waits that long.'),
    ]);
    expect(run(step('delay', 'type: scheduled'))).toEqual([
      error(
        7,
        5,
        'steps[0].metadata needs `delayPath`: a scheduled delay waits until the date found at that payload path.',
      ),
    ]);
    expect(run(step('digest', 'type: regular', 'amount: 0'))).toEqual([
      error(
        7,
        5,
        'steps[0].metadata needs `amount` above 0 and `unit`: a regular digest collects events for that long.',
      ),
    ]);
    expect(run(step('digest', 'type: backoff', 'amount: 5', 'unit: hours', 'backoffAmount: 1'))).toEqual([
      error(
        7,
        5,
        'steps[0].metadata needs `backoffUnit`: a backoff digest only starts when events came within that window.',
      ),
    ]);
  });

  it('checks a timed digest schedule against its unit', () => {
    expect(
      run(step('digest', 'type: timed', 'amount: 1', 'unit: weeks', 'timed: {atTime: "09:30"}')),
    ).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.timed needs `weekDays`: a weekly timed digest sends on those days at that time.',
      ),
    ]);
    expect(run(step('digest', 'type: timed', 'amount: 1', 'unit: weeks'))).toEqual([
      error(
        7,
        5,
        'steps[0].metadata needs `timed.atTime` and `timed.weekDays`: a weekly timed digest sends on those days at that time.',
      ),
    ]);
    expect(
      run(
        step(
          'digest',
          'type: timed',
          'amount: 1',
          'unit: days',
          'timed:',
          '  atTime: "10:00"',
          '  weekDays: [monday]',
        ),
      ),
    ).toEqual([
      error(
        13,
        9,
        'steps[0].metadata.timed.weekDays does not fit unit days (it is read for weeks only): remove it.',
      ),
    ]);
    expect(
      run(step('digest', 'type: timed', 'amount: 30', 'unit: minutes', 'timed: {atTime: "10:00"}')),
    ).toEqual([
      error(
        11,
        15,
        'steps[0].metadata.timed.atTime does not fit unit minutes (it is read for days, weeks or months only): remove it.',
      ),
    ]);
    expect(
      run(step('digest', 'type: timed', 'amount: 1', 'unit: months', 'timed: {atTime: "10:00"}')),
    ).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.timed needs `monthlyType`: a monthly timed digest sends at that time on listed days (monthlyType each) or on a day such as the last friday (on).',
      ),
    ]);
    expect(
      run(
        step(
          'digest',
          'type: timed',
          'amount: 1',
          'unit: months',
          'timed:',
          '  atTime: "10:00"',
          '  monthlyType: on',
          '  monthDays: [1, 15]',
        ),
      ),
    ).toEqual([
      error(
        11,
        7,
        'steps[0].metadata.timed needs `ordinal` and `ordinalValue`: a monthly timed digest of type on sends on that day of the month (e.g. the last friday) at that time.',
      ),
      error(
        14,
        9,
        'steps[0].metadata.timed.monthDays does not fit monthlyType "on" (it is read for each only): remove it.',
      ),
    ]);
  });

  it('checks variants too', () => {
    const text = `${step('sms')}    variants:\n      - template: {type: sms, content: hi}\n        metadata: {amount: 1}\n        filters: [{value: AND, children: [{on: isOnline, value: true}]}]\n`;
    expect(run(text)).toEqual([
      error(
        9,
        9,
        'steps[0].variants[0].metadata is set on an sms step, but only digest and delay steps take metadata: remove it.',
      ),
    ]);
  });
});
