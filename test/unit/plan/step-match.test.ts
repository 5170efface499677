import { describe, expect, it } from 'vitest';
import { matchSteps } from '../../../src/plan/step-match.js';

const step = (name: string | undefined, type: string, templateId?: string) => ({
  ...(name === undefined ? {} : { name }),
  template: { type },
  ...(templateId === undefined ? {} : { _templateId: templateId }),
});

describe('matchSteps: which file step is which service step', () => {
  it('the same name and channel keep their template, wherever the step moved', () => {
    const service = [step('mail', 'email', 't1'), step('bell', 'in_app', 't2')];
    const local = [step('bell', 'in_app'), step('mail', 'email')];
    const { templateIds, steps } = matchSteps(local, service);
    expect(templateIds).toEqual(['t2', 't1']);
    expect(steps).toEqual([
      { name: 'bell', channel: 'in_app', match: 'kept', templateId: 't2' },
      { name: 'mail', channel: 'email', match: 'kept', templateId: 't1' },
    ]);
  });

  it('a renamed step is matched by position among the steps of its channel', () => {
    const service = [step('first sms', 'sms', 't1'), step('second sms', 'sms', 't2')];
    const local = [step('reminder', 'sms'), step('second sms', 'sms')];
    expect(matchSteps(local, service).templateIds).toEqual(['t1', 't2']);
  });

  it('names first: a step that kept its name is not taken by position by an earlier renamed one', () => {
    const service = [step('a', 'sms', 't1'), step('b', 'sms', 't2')];
    const local = [step('renamed', 'sms'), step('a', 'sms')];
    expect(matchSteps(local, service).templateIds).toEqual(['t2', 't1']);
  });

  it('added and removed steps', () => {
    const service = [step('mail', 'email', 't1'), step('push it', 'push', 't2')];
    const local = [step('mail', 'email'), step('chat it', 'chat')];
    const { templateIds, steps } = matchSteps(local, service);
    expect(templateIds).toEqual(['t1', undefined]);
    expect(steps.map((s) => [s.name, s.match])).toEqual([
      ['mail', 'kept'],
      ['chat it', 'new'],
      ['push it', 'removed'],
    ]);
  });

  it('a step whose channel changed is replaced, never kept (the service never changes a template type)', () => {
    const service = [step('notify', 'email', 't1')];
    const local = [step('notify', 'sms')];
    const { templateIds, steps } = matchSteps(local, service);
    expect(templateIds).toEqual([undefined]);
    expect(steps).toEqual([{ name: 'notify', channel: 'sms', match: 'replaced', from: 'email' }]);
  });

  it('unnamed steps are named by channel and position', () => {
    const { steps } = matchSteps([step(undefined, 'sms')], [step(undefined, 'sms', 't9')]);
    expect(steps).toEqual([{ name: 'sms 1', channel: 'sms', match: 'kept', templateId: 't9' }]);
  });
});
