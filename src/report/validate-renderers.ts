import { renderValidateCodeClimate } from './codeclimate.js';
import { renderGithub } from './github.js';
import { renderHuman } from './human.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderSarif } from './sarif.js';
import type { ValidateFormat, ValidateRenderer } from './validate-report.js';

/** Renderers by `--format` name. Pure: each returns the whole output, ending with a newline. */
export const validateRenderers: Record<ValidateFormat, ValidateRenderer> = {
  human: renderHuman,
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
  sarif: renderSarif,
  codeclimate: (report) => renderValidateCodeClimate(report),
};
