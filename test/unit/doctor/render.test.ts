import { describe, expect, it } from 'vitest';
import { checkNode } from '../../../src/doctor/checks.js';
import { doctorExitCode, renderDoctorHuman, renderDoctorJson } from '../../../src/doctor/render.js';
import { DOCTOR_CHECKS, type DoctorCheck, type DoctorReport } from '../../../src/doctor/types.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { jsonOutputProblems } from '../../helpers/json-output.js';

/** A report whose every check is ok but those given. */
function reportWith(
  overrides: Partial<Record<DoctorCheck['id'], Omit<DoctorCheck, 'id' | 'title'>>>,
): DoctorReport {
  return {
    target: 'dev',
    checks: DOCTOR_CHECKS.map(({ id, title }) => ({
      id,
      title,
      status: 'ok',
      message: 'fine',
      ...overrides[id],
    })),
  };
}

describe('doctor report', () => {
  it('exits 0 with warnings alone, else with the first failing check’s code', () => {
    expect(doctorExitCode(reportWith({ lock: { status: 'warn', message: 'stale' } }))).toBe(0);
    const failing = reportWith({
      'key-accepted': { status: 'fail', message: '401', exitCode: 4 },
      'notification-groups': { status: 'fail', message: 'missing', exitCode: 3 },
    });
    expect(doctorExitCode(failing)).toBe(4);
    expect(renderDoctorHuman(failing)).toContain(
      '9 ok, 2 failed: exit 4, from the first failure ("key accepted")\n',
    );
  });

  it('prints the hint under its check, aligned after the titles', () => {
    const text = renderDoctorHuman(
      reportWith({ lock: { status: 'warn', message: 'stale', hint: 'delete it' } }),
    );
    expect(text).toContain('  warn  state lock           stale\n                             → delete it\n');
  });

  it('JSON: the schema’s document, with the summary and the exit code', () => {
    const document = JSON.parse(
      renderDoctorJson(reportWith({ 'api-key': { status: 'fail', message: 'unset', exitCode: 4 } })),
    );
    expect(jsonOutputProblems('doctor', document)).toEqual([]);
    expect(document.summary).toEqual({ ok: DOCTOR_CHECKS.length - 1, warn: 0, fail: 1, skipped: 0 });
    expect(document.exitCode).toBe(4);
    expect(jsonOutputProblems('doctor', { ...document, extra: 1 })).not.toEqual([]);
  });

  it('JSON: a check may fail with any code but the plan-only ones (a 429 outlasting the retries is 5)', () => {
    // A check fails with whatever WfsyncError its step threw (results.ts, failedWith): the schema must take each.
    const planOnly: number[] = [ExitCode.Ok, ExitCode.Changes, ExitCode.NeedsPerson];
    for (const code of Object.values(ExitCode).filter((c) => !planOnly.includes(c))) {
      const document = JSON.parse(
        renderDoctorJson(reportWith({ 'key-accepted': { status: 'fail', message: 'no', exitCode: code } })),
      );
      expect([code, jsonOutputProblems('doctor', document)]).toEqual([code, []]);
    }
  });
});

describe('checkNode', () => {
  it('passes engines’ minimum and above, fails below it with what to install (exit 1)', () => {
    expect(checkNode('20.19.0').status).toBe('ok');
    expect(checkNode('22.1.0').status).toBe('ok');
    expect(checkNode('20.18.3')).toEqual({
      status: 'fail',
      message: 'v20.18.3 is older than wfsync needs (>=20.19)',
      hint: 'install Node 20.19 or later (an LTS release), e.g. with nvm, fnm or your package manager',
      exitCode: 1,
    });
    expect(checkNode('18.20.0').status).toBe('fail');
  });
});
