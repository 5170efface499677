import { describe, expect, it } from 'vitest';
import { ServerWindow, type Slot } from '../../../src/remote/server-window.js';

/** Let requests through while the window says go; returns their slots. */
function sendWhileAllowed(window: ServerWindow, now: number, max = 100): Slot[] {
  const slots: Slot[] = [];
  for (let i = 0; i < max; i++) {
    const decision = window.decide(now);
    if (decision.type !== 'go') break;
    slots.push(window.grant(now, decision.probe));
  }
  return slots;
}

const answer = (now: number, remaining: number, resetSeconds: number, windowMs?: number) => ({
  now,
  count: { remaining, resetAt: now + resetSeconds * 1000, ...(windowMs === undefined ? {} : { windowMs }) },
});

describe('ServerWindow', () => {
  it('sends one request alone until the first answer, then as many as the answer leaves', () => {
    const window = new ServerWindow();
    const [probe, ...more] = sendWhileAllowed(window, 0);
    expect(probe?.probe).toBe(true);
    expect(more).toEqual([]);
    expect(window.decide(0)).toMatchObject({ type: 'wait', until: undefined });
    window.settle(probe!, answer(50, 9, 1));
    expect(sendWhileAllowed(window, 50)).toHaveLength(9);
    expect(window.decide(50)).toMatchObject({ type: 'wait', until: 1050 });
  });

  it('counts the requests still in flight, whatever order their answers come back in', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(10, 20, 1));
    const flight = sendWhileAllowed(window, 10, 12);
    expect(flight).toHaveLength(12);
    // The service took them in another order: the last one sent was counted first (19 left) and so on. An answer
    // says 19 left, but 11 others are still on their way: 8 more may go, not 19.
    window.settle(flight[11]!, answer(20, 19, 1));
    expect(sendWhileAllowed(window, 20)).toHaveLength(8);
    window.settle(flight[0]!, answer(21, 8, 1));
    expect(window.decide(21).type).toBe('wait');
  });

  it('after the window ends, one request learns the new count before the others go', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(10, 1, 1));
    const [last] = sendWhileAllowed(window, 10);
    window.settle(last!, answer(20, 0, 1));
    // The bound is the smallest answered-at + reset in the window: 10 + 1000.
    expect(window.decide(500)).toMatchObject({ type: 'wait', until: 1010 });
    const [probe, ...others] = sendWhileAllowed(window, 1010);
    expect(probe?.probe).toBe(true);
    expect(others).toEqual([]);
    expect(window.decide(1010)).toMatchObject({ type: 'wait', until: undefined });
    window.settle(probe!, answer(1060, 29, 1));
    expect(sendWhileAllowed(window, 1060)).toHaveLength(29);
  });

  it('with the policy window known, the next window ends one length after the last, not a round trip later', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(50, 2, 1, 1000));
    window.settle(sendWhileAllowed(window, 50, 1)[0]!, answer(100, 1, 1, 1000));
    window.settle(sendWhileAllowed(window, 100, 1)[0]!, answer(150, 0, 1, 1000));
    expect(window.decide(150)).toMatchObject({ until: 1050 });
    const [probe] = sendWhileAllowed(window, 1050);
    // The old window ended after 100 (a request sent then was counted in it), so this answer, back by 1100, was
    // counted in the very next window, which ends by 1050 + 1000 (its own bound would be 2100).
    window.settle(probe!, answer(1100, 29, 1, 1000));
    expect(sendWhileAllowed(window, 1100)).toHaveLength(29);
    expect(window.decide(1100)).toMatchObject({ until: 2050 });
  });

  it('a window that began long after the last answer gets no such shortcut', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(100, 0, 1, 1000));
    const [probe] = sendWhileAllowed(window, 5000);
    window.settle(probe!, answer(5100, 0, 1, 1000));
    expect(window.decide(5100)).toMatchObject({ until: 6100 });
  });

  it('an answer from an earlier window does not move the current window’s end', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(10, 2, 3));
    const [slow, fast] = sendWhileAllowed(window, 10);
    window.settle(fast!, answer(20, 0, 3));
    const [probe] = sendWhileAllowed(window, 3010);
    window.settle(probe!, answer(3020, 5, 3));
    // Sent in the first window, answered now: its reset (1 s from now) describes the first window's end.
    window.settle(slow!, answer(3030, 0, 1));
    expect(sendWhileAllowed(window, 3030)).toHaveLength(4);
    expect(window.decide(3030)).toMatchObject({ until: 6020 });
  });

  it('tells a refill from more Remaining than an answer seen before sending', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(10, 10, 5));
    const first = sendWhileAllowed(window, 10, 1)[0]!;
    window.settle(first, answer(20, 3, 5));
    const second = sendWhileAllowed(window, 20, 1)[0]!;
    // 10 left before, more than the 3 seen when it was sent: the window was refilled (others shared it), so the
    // window's end is this answer's own bound, not the old one's.
    window.settle(second, answer(1000, 10, 4));
    const many = sendWhileAllowed(window, 1000);
    expect(many).toHaveLength(10);
    expect(window.decide(1000)).toMatchObject({ until: 5000 });
  });

  it('a failed probe lets another request probe', () => {
    const window = new ServerWindow();
    const [probe] = sendWhileAllowed(window, 0);
    window.settle(probe!);
    const [again, ...others] = sendWhileAllowed(window, 5);
    expect(again?.probe).toBe(true);
    expect(others).toEqual([]);
  });

  it('without counts from the service, nothing is held after the first answer', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, { now: 10 });
    expect(window.counting).toBe(false);
    expect(sendWhileAllowed(window, 10, 50)).toHaveLength(50);
  });

  it('stops holding when a probe comes back without a count: the service stopped counting', () => {
    const window = new ServerWindow();
    window.settle(sendWhileAllowed(window, 0)[0]!, answer(10, 0, 1));
    expect(window.counting).toBe(true);
    const [probe] = sendWhileAllowed(window, 1010);
    window.settle(probe!, { now: 1020 });
    expect(window.counting).toBe(false);
    expect(sendWhileAllowed(window, 1020, 20)).toHaveLength(20);
  });

  it('settling twice counts once', () => {
    const window = new ServerWindow();
    const [probe] = sendWhileAllowed(window, 0);
    window.settle(probe!, answer(10, 3, 1));
    window.settle(probe!);
    expect(sendWhileAllowed(window, 10)).toHaveLength(3);
  });
});
