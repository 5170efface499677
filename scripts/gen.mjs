// Generates src/generated/ from schemas/: TypeScript types (json-schema-to-typescript) and ajv standalone
// validators, so the CLI never compiles a schema at start-up. `npm run gen` writes the files;
// test/unit/generated/generated.test.ts calls generate() and fails on any drift. Deterministic: same schemas, same bytes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { compile } from 'json-schema-to-typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The schemas, the generated type module of each, the name of its exported validator and the module that holds it:
 * what `validate` needs (definitions, config) apart from the service's answers (remote/ alone), so that a `validate`
 * run never loads, parses and compiles the response validators (~40% of the generated code) at start-up.
 */
export const SCHEMAS = [
  {
    file: 'schemas/workflow.schema.json',
    typesModule: 'workflow.ts',
    rootType: 'WorkflowDefinition',
    validator: 'validateWorkflowDefinition',
    validatorModule: 'validators.ts',
  },
  {
    file: 'schemas/workflow-response.schema.json',
    typesModule: 'workflow-response.ts',
    rootType: 'WorkflowResponseEnvelope',
    validator: 'validateWorkflowResponseEnvelope',
    validatorModule: 'response-validators.ts',
  },
  {
    file: 'schemas/environment-response.schema.json',
    typesModule: 'environment-response.ts',
    rootType: 'EnvironmentResponseEnvelope',
    validator: 'validateEnvironmentResponseEnvelope',
    validatorModule: 'response-validators.ts',
  },
  {
    file: 'schemas/notification-groups-response.schema.json',
    typesModule: 'notification-groups-response.ts',
    rootType: 'NotificationGroupsResponseEnvelope',
    validator: 'validateNotificationGroupsResponseEnvelope',
    validatorModule: 'response-validators.ts',
  },
  {
    file: 'schemas/config.schema.json',
    typesModule: 'config.ts',
    rootType: 'WfsyncConfig',
    validator: 'validateWfsyncConfig',
    validatorModule: 'validators.ts',
  },
];

/**
 * The documents wfsync prints (`--format json`, and `--format codeclimate`): types only, for the programmatic API's
 * results (src/api/documents.ts) and the code that builds them (the plan, the preview, Code Quality issues). Tests
 * validate the documents against these schemas (test/helpers/json-output.ts, with the schemas they refer to); the CLI
 * never does.
 */
export const OUTPUT_SCHEMAS = [
  {
    file: 'schemas/validate-output.schema.json',
    typesModule: 'validate-output.ts',
    rootType: 'ValidateOutput',
  },
  { file: 'schemas/plan-output.schema.json', typesModule: 'plan-output.ts', rootType: 'PlanOutput' },
  { file: 'schemas/sync-output.schema.json', typesModule: 'sync-output.ts', rootType: 'SyncOutput' },
  {
    file: 'schemas/codeclimate-output.schema.json',
    typesModule: 'codeclimate-output.ts',
    rootType: 'CodeClimateOutput',
  },
  { file: 'schemas/preview-output.schema.json', typesModule: 'preview-output.ts', rootType: 'PreviewOutput' },
  { file: 'schemas/state-output.schema.json', typesModule: 'state-output.ts', rootType: 'StateOutput' },
];

/**
 * Keywords our schemas use besides the standard ones: editor hover text (markdownDescription), the human wording of a
 * pattern for error messages (patternDescription) and a json-schema-to-typescript override (tsType).
 */
export const CUSTOM_KEYWORDS = ['markdownDescription', 'patternDescription', 'tsType'];

/** Annotations validation never reads: stripped before generating validator code to keep it small. */
const DOC_ONLY_KEYWORDS = new Set([
  'description',
  'markdownDescription',
  'examples',
  'default',
  'tsType',
  '$comment',
]);

/**
 * The ajv instance used for generation and by the schema tests. `verbose` keeps `parentSchema` on errors (the mapper
 * reads allowed property names and bounds from it); `allowUnionTypes` permits `type: [string, number, boolean]`.
 */
export function createAjv(options = {}) {
  const ajv = new Ajv2020.default({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    verbose: true,
    keywords: CUSTOM_KEYWORDS,
    ...options,
  });
  addFormats.default(ajv, ['uri', 'date-time']);
  return ajv;
}

export function readSchema(file, root = ROOT) {
  return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Drop annotations from a schema and its subschemas; values of `enum`/`const` and property names stay untouched. */
function stripDocs(schema) {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOC_ONLY_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAP_KEYWORDS.has(key)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, stripDocs(sub)]));
    } else if (SCHEMA_LIST_KEYWORDS.has(key)) out[key] = value.map(stripDocs);
    else if (SCHEMA_KEYWORDS.has(key)) out[key] = stripDocs(value);
    else out[key] = value;
  }
  return out;
}

function banner(schemaFiles) {
  return `// generated by npm run gen from ${schemaFiles.join(', ')}; do not edit`;
}

async function generateTypes(spec, schema, root) {
  const code = await compile(structuredClone(schema), spec.rootType, {
    // The output schemas refer to error-output.schema.json beside them.
    cwd: join(root, 'schemas'),
    bannerComment: '',
    additionalProperties: true,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    unknownAny: true,
    // Bounded arrays: `triggers` becomes the 1-tuple [TriggerDefinition], `steps` a non-empty array.
    maxItems: 1,
    format: true,
    style: { singleQuote: true, printWidth: 110, trailingComma: 'all', bracketSpacing: true, semi: true },
  });
  return `${banner([spec.file])}\n\n${code.trimStart()}`;
}

/**
 * ajv's standalone ESM output still says `require("ajv/dist/runtime/equal").default` for its runtime helpers
 * (CommonJS modules with `__esModule`): each becomes an import, so the CLI's build bundles the helpers
 * (scripts/build.mjs) and its compile cache covers them, where a require() at run time would not. Loaders disagree on
 * what such a module's namespace holds (Node and rolldown: `default` is the whole `module.exports`; vitest: the
 * exports themselves), so the module object is taken from whichever shape arrives. ajv-formats' checks are the
 * exception: required on first use, since most runs need none of them.
 */
function toEsm(code) {
  const imports = [];
  const prelude = [];
  const ids = [];
  const body = lazyFormats(code.replace(/^"use strict";\n?/, '')).replace(
    /require\("([^"]+)"\)/g,
    (call, id) => {
      // ajv-formats stays a require, made on first use (lazyFormats below).
      if (id.startsWith('ajv-formats/')) return call;
      let index = ids.indexOf(id);
      if (index === -1) {
        index = ids.push(id) - 1;
        imports.push(`import * as runtimeModule${index} from '${id}.js';`);
        prelude.push(
          `const runtime${index} = runtimeModule${index}.default?.__esModule ? runtimeModule${index}.default : runtimeModule${index};`,
        );
      }
      return `runtime${index}`;
    },
  );
  if (body.includes('require(')) {
    imports.push("import { createRequire } from 'node:module';");
    prelude.push('const require = createRequire(import.meta.url);');
  }
  return { imports, prelude, body };
}

/** ajv's `const formatsN = require("ajv-formats/dist/formats").fullFormats…;`, one per format a schema names. */
const FORMAT_REQUIRE =
  /^const (formats\d+) = (require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.\w+|\["[\w-]+"\]));$/gm;

/**
 * Each format check required the first time it is used: ajv-formats' module builds every format it knows when it
 * loads (~13M instructions, 1.5% of a `wfsync validate`), and most runs check no `uri` or `date-time` at all (a
 * config without a target URL, a definition). `formatsN` becomes a getter, and each use of it a call.
 */
function lazyFormats(code) {
  let out = code;
  for (const [, name] of code.matchAll(FORMAT_REQUIRE)) {
    out = out.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}()`);
    out = out.replace(
      new RegExp(`^const ${name}\\(\\) = (.*);$`, 'm'),
      `let ${name}Loaded;\nconst ${name} = () => (${name}Loaded ??= $1);`,
    );
  }
  return out;
}

function generateValidators(specs, schemas) {
  const ajv = createAjv({ code: { source: true, esm: true, lines: true } });
  const refs = {};
  specs.forEach((spec, i) => {
    ajv.addSchema(stripDocs(schemas[i]), spec.file);
    refs[spec.validator] = spec.file;
  });
  const { imports, prelude, body } = toEsm(standaloneCode.default(ajv, refs));
  let typed = body;
  for (const spec of specs) {
    const exportLine = new RegExp(`^export const ${spec.validator} = `, 'm');
    if (!exportLine.test(typed)) throw new Error(`gen: ajv output has no export ${spec.validator}`);
    typed = typed.replace(exportLine, `export const ${spec.validator}: SchemaValidator<${spec.rootType}> = `);
  }
  const typeImports = specs.map(
    (s) => `import type { ${s.rootType} } from './${s.typesModule.replace(/\.ts$/, '.js')}';`,
  );
  return [
    '// @ts-nocheck',
    banner(specs.map((s) => s.file)),
    '// ajv standalone validation code (allErrors, strict, verbose): schemas compiled at gen time, not at start-up.',
    "import type { ErrorObject } from 'ajv';",
    ...typeImports,
    ...imports,
    '',
    '/** A compiled schema: a type guard that leaves ajv errors on `.errors` when it returns false. */',
    'export interface SchemaValidator<T> {',
    '  (data: unknown): data is T;',
    '  errors?: ErrorObject[] | null;',
    '}',
    '',
    ...prelude,
    typed.trim(),
    '',
  ].join('\n');
}

/** Every generated file, path relative to the repository root → content. Pure apart from reading the schemas. */
export async function generate(root = ROOT) {
  const schemas = SCHEMAS.map((spec) => readSchema(spec.file, root));
  const files = new Map();
  for (const [i, spec] of SCHEMAS.entries()) {
    files.set(`src/generated/${spec.typesModule}`, await generateTypes(spec, schemas[i], root));
  }
  for (const spec of OUTPUT_SCHEMAS) {
    files.set(
      `src/generated/${spec.typesModule}`,
      await generateTypes(spec, readSchema(spec.file, root), root),
    );
  }
  for (const module of new Set(SCHEMAS.map((spec) => spec.validatorModule))) {
    const at = [...SCHEMAS.keys()].filter((i) => SCHEMAS[i].validatorModule === module);
    files.set(
      `src/generated/${module}`,
      generateValidators(
        at.map((i) => SCHEMAS[i]),
        at.map((i) => schemas[i]),
      ),
    );
  }
  return files;
}

async function main() {
  const files = await generate();
  mkdirSync(join(ROOT, 'src/generated'), { recursive: true });
  for (const [path, content] of files) {
    writeFileSync(join(ROOT, path), content);
    console.log(`wrote ${path}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main();
}
