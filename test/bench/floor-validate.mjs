// The floor for validate: read each file, yaml.parse, run a compiled ajv validator. No positions, no rules, no report.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';

const [schemaPath, dir] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
let invalid = 0;
for (const name of readdirSync(dir)) {
  if (!validate(parse(readFileSync(join(dir, name), 'utf8')))) invalid++;
}
process.stdout.write(`${invalid} invalid\n`);
