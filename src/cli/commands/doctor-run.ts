import { readDoctorReport } from '../../doctor/checks.js';
import { doctorExitCode, renderDoctorHuman, renderDoctorJson } from '../../doctor/render.js';
import { writeOutput } from '../../report/write-output.js';
import type { CommandContext } from '../context.js';
import { parseTargetArguments, type TargetValues } from '../run-options.js';

export async function runDoctor(
  ctx: CommandContext,
  values: TargetValues & { format: 'human' | 'json' },
): Promise<number> {
  // 1. Every check, in order (a problem to fix is a check's answer, not an error).
  const report = await readDoctorReport(parseTargetArguments(values).options, {
    cwd: ctx.cwd,
    env: ctx.env,
    nodeVersion: process.versions.node,
  });
  // 2. The report, and the exit code it decided.
  await writeOutput(
    ctx.stdout,
    values.format === 'json' ? renderDoctorJson(report) : renderDoctorHuman(report),
  );
  return doctorExitCode(report);
}
