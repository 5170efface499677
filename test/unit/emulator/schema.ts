import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The response schema (schemas/workflow-response.schema.json) compiled once, as every consumer of it does. */
const schema = JSON.parse(
  readFileSync(new URL('../../../schemas/workflow-response.schema.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** Schema errors of a response body (an empty list when it conforms). */
export function responseSchemaErrors(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
