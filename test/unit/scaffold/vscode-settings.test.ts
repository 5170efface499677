import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsoncValue, readJsonc } from '../../../src/scaffold/jsonc.js';
import { buildSettingsMerge, type SchemaMapping, snippetFor } from '../../../src/scaffold/vscode-settings.js';
import { runs } from '../../helpers/fc-runs.js';

const MAPPING: SchemaMapping = {
  schema: 'node_modules/wfsync/schemas/workflow.schema.json',
  globs: ['workflows/**/*.yaml', 'workflows/**/*.yml'],
};
const SCHEMA = MAPPING.schema;

function merged(existing: string | undefined): string {
  const merge = buildSettingsMerge(existing, MAPPING);
  if (merge.status !== 'create' && merge.status !== 'update') throw new Error(JSON.stringify(merge));
  return merge.text;
}

function plainValue(text: string): unknown {
  const parsed = readJsonc(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return jsoncValue(parsed.root);
}

describe('buildSettingsMerge', () => {
  it('no file: creates one with the mapping', () => {
    expect(buildSettingsMerge(undefined, MAPPING)).toEqual({
      status: 'create',
      note: 'added yaml.schemas',
      text: `{
  "yaml.schemas": {
    "${SCHEMA}": [
      "workflows/**/*.yaml",
      "workflows/**/*.yml"
    ]
  }
}
`,
    });
  });

  // The new setting goes right after the last one, before the comments that follow it: where VS Code's own settings
  // edits put it (jsonc-parser's `modify`).
  it('a file with comments and a trailing comma: adds the setting, keeps every other byte', () => {
    const existing = `// Team settings
{
    /* Format on save, always */
    "editor.formatOnSave": true, // yes
    "files.exclude": {
        "**/dist": true,
    },
    // "yaml.schemas": {}   (commented out by someone)
}
`;
    expect(merged(existing)).toBe(`// Team settings
{
    /* Format on save, always */
    "editor.formatOnSave": true, // yes
    "files.exclude": {
        "**/dist": true,
    },
    "yaml.schemas": {
        "${SCHEMA}": [
            "workflows/**/*.yaml",
            "workflows/**/*.yml"
        ]
    },
    // "yaml.schemas": {}   (commented out by someone)
}
`);
  });

  it('no trailing comma: adds one after the last value; the comment on its line follows the new setting', () => {
    const existing = '{\n  "a": 1 // one\n}\n';
    expect(merged(existing)).toBe(
      `{\n  "a": 1,\n  "yaml.schemas": {\n    "${SCHEMA}": [\n      "workflows/**/*.yaml",\n      "workflows/**/*.yml"\n    ]\n  } // one\n}\n`,
    );
  });

  it('keeps tabs and CRLF line endings', () => {
    const existing = '{\r\n\t"a": 1\r\n}\r\n';
    const text = merged(existing);
    expect(text.startsWith('{\r\n\t"a": 1,\r\n\t"yaml.schemas": {\r\n\t\t"')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('an empty object or an empty file', () => {
    expect(plainValue(merged('{}'))).toEqual({ 'yaml.schemas': { [SCHEMA]: MAPPING.globs } });
    expect(merged('{}')).toMatch(/^\{\n {2}"yaml\.schemas": \{\n/);
    expect(buildSettingsMerge('  \n', MAPPING)).toMatchObject({ status: 'update' });
  });

  it('a one-line object stays on one line', () => {
    expect(merged('{ "a": 1 }')).toBe(
      `{ "a": 1, "yaml.schemas": {"${SCHEMA}":["workflows/**/*.yaml","workflows/**/*.yml"]} }`,
    );
  });

  it('an existing yaml.schemas object: adds the entry to it, next to the others (its trailing comma kept)', () => {
    const existing = `{
  "yaml.schemas": {
    // Kubernetes
    "kubernetes": "k8s/*.yaml",
  },
  "b": 2
}`;
    expect(merged(existing)).toBe(`{
  "yaml.schemas": {
    // Kubernetes
    "kubernetes": "k8s/*.yaml",
    "${SCHEMA}": [
      "workflows/**/*.yaml",
      "workflows/**/*.yml"
    ],
  },
  "b": 2
}`);
  });

  it('the schema mapped to some of the globs: adds the missing ones to its list', () => {
    const existing = `{\n  "yaml.schemas": {\n    "${SCHEMA}": [\n      "workflows/**/*.yaml", // ours\n      "more/*.yaml"\n    ]\n  }\n}\n`;
    const merge = buildSettingsMerge(existing, MAPPING);
    expect(merge).toMatchObject({
      status: 'update',
      note: `added workflows/**/*.yml to the ${SCHEMA} entry`,
    });
    expect(merged(existing)).toBe(
      `{\n  "yaml.schemas": {\n    "${SCHEMA}": [\n      "workflows/**/*.yaml", // ours\n      "more/*.yaml",\n      "workflows/**/*.yml"\n    ]\n  }\n}\n`,
    );
  });

  it('the schema mapped to one glob as a string: the string becomes a list', () => {
    const existing = `{\n  "yaml.schemas": { "${SCHEMA}": "workflows/**/*.yaml" }\n}\n`;
    expect(plainValue(merged(existing))).toEqual({
      'yaml.schemas': { [SCHEMA]: ['workflows/**/*.yaml', 'workflows/**/*.yml'] },
    });
  });

  it('already mapped: unchanged', () => {
    const existing = `{ "yaml.schemas": { "${SCHEMA}": ["workflows/**/*.yml", "workflows/**/*.yaml", "x"] } }`;
    expect(buildSettingsMerge(existing, MAPPING)).toEqual({ status: 'unchanged' });
  });

  it.each([
    ['{ "a": 1, }  x', 'it is not valid JSON with comments (unexpected character at 1:14)'],
    ['{ "a": 1 ', 'it is not valid JSON with comments (expected "}" at 1:10)'],
    ['[1, 2]', 'its top level is not an object'],
    ['{ "yaml.schemas": {}, "yaml.schemas": {} }', 'it sets "yaml.schemas" more than once'],
    ['{ "yaml.schemas": ["x"] }', 'its "yaml.schemas" is not an object'],
    [
      '{ "yaml.schemas": { "./schemas/workflow.schema.json": ["workflows/**/*.yaml"] } }',
      'its "yaml.schemas" maps workflows/**/*.yaml to ./schemas/workflow.schema.json already',
    ],
    [
      `{ "yaml.schemas": { "${SCHEMA}": { "not": "a glob" } } }`,
      `its "yaml.schemas" entry for ${SCHEMA} is not a glob or a list of globs`,
    ],
  ])('cannot be merged safely: %j → left alone (%s)', (existing, reason) => {
    expect(buildSettingsMerge(existing, MAPPING)).toEqual({
      status: 'manual',
      reason,
      snippet: snippetFor(MAPPING),
    });
  });

  it('the snippet to add by hand is the entry as it would appear in the file', () => {
    expect(snippetFor(MAPPING)).toBe(
      `"yaml.schemas": {\n  "${SCHEMA}": [\n    "workflows/**/*.yaml",\n    "workflows/**/*.yml"\n  ]\n}`,
    );
  });

  it("a key holding `//` (the property's counterexample, FC_SEED=7 FC_PATH=37:1:2:2:14:15:15): the comma goes before the comment, the key stays as it was, and so does the line's one-line value", () => {
    // The property once searched the text for anything shaped like a comment, so `//":""}} // l0`, running from
    // inside the key to the end of the line, was "lost" when the comma went in: the property was wrong, not the merge.
    const text = '{\n  /* c0 */ "": {"":{"//":""}} // l0\n  // last\n}\n';
    expect(merged(text)).toBe(
      '{\n  /* c0 */ "": {"":{"//":""}},\n' +
        `  "yaml.schemas": {\n    "${SCHEMA}": [\n      "workflows/**/*.yaml",\n      "workflows/**/*.yml"\n    ]\n  } // l0\n  // last\n}\n`,
    );
  });

  it('any settings file, however formatted and commented: the result holds the old settings plus the entry, and every comment', () => {
    // Keys and strings shaped like comments on every run, not only when the random strings happen to hold them.
    const commentLike = fc.constantFrom('//', '/* x */', '*/', 'a // b', '/*');
    const key = fc.oneof(fc.string({ maxLength: 8 }), commentLike).filter((k) => k !== 'yaml.schemas');
    const scalar = fc.oneof(
      fc.string({ maxLength: 8 }),
      commentLike,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(key, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    const settings = fc.dictionary(key, value, { maxKeys: 5 });
    const style = fc.record({
      indent: fc.constantFrom('  ', '    ', '\t'),
      trailingComma: fc.boolean(),
      comments: fc.boolean(),
      crlf: fc.boolean(),
    });
    fc.assert(
      fc.property(settings, style, (object, { indent, trailingComma, comments, crlf }) => {
        const eol = crlf ? '\r\n' : '\n';
        const members = Object.entries(object).map(
          ([k, v], i) =>
            `${indent}${comments ? `/* c${i} */ ` : ''}${JSON.stringify(k)}: ${JSON.stringify(v)}`,
        );
        const body = members.map(
          (m, i) => m + (i < members.length - 1 || trailingComma ? ',' : '') + (comments ? ` // l${i}` : ''),
        );
        const text = ['{', ...body, ...(comments ? [`${indent}// last`] : []), '}', ''].join(eol);
        const result = merged(text);
        expect(plainValue(result)).toEqual({ ...object, 'yaml.schemas': { [SCHEMA]: MAPPING.globs } });
        // The comments written above (a key may hold `//` or `/*` itself, so they are not searched for in the text).
        const written = comments
          ? [...members.flatMap((_, i) => [`/* c${i} */`, `// l${i}`]), '// last']
          : [];
        for (const comment of written) expect(result).toContain(comment);
        // A second run finds nothing to add.
        expect(buildSettingsMerge(result, MAPPING)).toEqual({ status: 'unchanged' });
      }),
      { numRuns: runs(300) },
    );
  });
});
