import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashContent } from '../../../src/cache/hash.js';
import { parseDefinitionFast } from '../../../src/definitions/fast-parse.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { readDefinitionFile } from '../../../src/definitions/read.js';
import {
  type CheckSetup,
  checkDefinitionBytes,
  checkDefinitionFile,
  type FileOutcome,
} from '../../../src/parallel/check-file.js';
import { buildFileValidation } from '../../../src/validate/index.js';
import { VALID } from '../../fixtures/workflow-texts.js';

/** Files the fast path reads (all but the last), each with a different kind of finding, or none. */
const FILES: Record<string, string> = {
  'valid.yaml': VALID,
  'schema.yaml': VALID.replace('type: chat', 'type: chatt'),
  'rule-error.yaml': VALID.replace('{{orderId}}', '{{#if orderId}}'),
  'rule-warning.yaml': VALID.replace('{{orderId}}', '{{orderId}} {{carrier}}'),
  'rule-info.yaml': VALID.replace('name: order shipped', 'name: Order Shipped Now'),
  'not-fast.yaml': VALID.replace('type: chat', 'type: &t chat'),
};

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setupWith(files: Record<string, string>): CheckSetup {
  const cwd = mkdtempSync(path.join(tmpdir(), 'wfsync-check-file-'));
  made.push(cwd);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), text);
  }
  return {
    cwd,
    limits: { ...DEFAULT_LOAD_LIMITS },
    rules: { severities: { 'identifier-name-mismatch': 'info' } },
  };
}

/** What the reference path (yaml, then the same validation) gives for one file. */
function referenceOutcome(file: string, setup: CheckSetup): FileOutcome {
  const loaded = readDefinitionFile(path.join(setup.cwd, file), file, setup.limits);
  const diagnostics = [...loaded.diagnostics];
  if (loaded.definition) {
    diagnostics.push(...buildFileValidation({ definitions: [loaded.definition], options: setup.rules }));
  }
  return {
    diagnostics,
    ...(diagnostics.length > 0 ? { text: loaded.text } : {}),
    identifier: 'order-shipped',
  };
}

describe('checkDefinitionFile', () => {
  it('reads every file but one on the fast path (the premise of the next test)', () => {
    const encoder = new TextEncoder();
    for (const [file, text] of Object.entries(FILES)) {
      expect(parseDefinitionFast(file, encoder.encode(text)) !== undefined, file).toBe(
        file !== 'not-fast.yaml',
      );
    }
  });

  it('gives the reference outcome whichever path read the file, findings of every severity included', () => {
    const setup = setupWith(FILES);
    const codes: Record<string, string[]> = {};
    for (const file of Object.keys(FILES)) {
      const outcome = checkDefinitionFile(file, setup);
      expect(outcome, file).toEqual(referenceOutcome(file, setup));
      codes[file] = outcome.diagnostics.map((d) => `${d.severity} ${d.code}@${d.line}:${d.column}`);
    }
    expect(codes).toEqual({
      'valid.yaml': [],
      'schema.yaml': ['error schema-enum@5:13'],
      'rule-error.yaml': ['error template-syntax@6:46', 'warning variable-unused@11:17'],
      'rule-warning.yaml': ['warning variable-undeclared@6:37'],
      'rule-info.yaml': ['info identifier-name-mismatch@9:17'],
      'not-fast.yaml': [],
    });
  });

  it('sends no text for a file without findings', () => {
    const setup = setupWith({ 'valid.yaml': VALID });
    expect(checkDefinitionFile('valid.yaml', setup)).toEqual({
      diagnostics: [],
      identifier: 'order-shipped',
    });
  });
});

/** A chat step whose content is in a file, referenced twice (content of the step and of a variant). */
const WITH_INCLUDE = `name: order shipped
steps:
  - name: chat
    template:
      type: chat
      content: { file: ./texts/chat.txt }
    variants:
      - filters: [{ value: AND, children: [{ on: payload, field: orderId, value: x, operator: EQUAL }] }]
        template:
          type: chat
          content: { file: ./texts/chat.txt }
triggers:
  - type: event
    identifier: order-shipped
    variables:
      - { name: orderId, type: String }
`;

describe('included texts (for frames of findings inside them)', () => {
  it('sends the text of an included file only when a finding points into it', () => {
    const setup = setupWith({
      'a.yaml': WITH_INCLUDE,
      'b.yaml': WITH_INCLUDE.replace('type: chat', 'type: chatt'),
      'texts/chat.txt': 'Order {{orderId}}\nfor {{customer}}\n',
    });
    const outcome = checkDefinitionFile('a.yaml', setup);
    expect(
      outcome.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.column} ${d.includedBy}`),
    ).toEqual(['variable-undeclared texts/chat.txt:2:7 a.yaml']);
    expect(outcome.text).toBe(WITH_INCLUDE);
    expect(outcome.includedTexts).toEqual([
      { file: 'texts/chat.txt', text: 'Order {{orderId}}\nfor {{customer}}' },
    ]);
    // A finding in the definition itself (the schema stops the rules): the included text stays home.
    const schema = checkDefinitionFile('b.yaml', setup);
    expect(schema.diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['schema-enum b.yaml']);
    expect(schema).not.toHaveProperty('includedTexts');
  });
});

describe('fingerprints (for the validate cache)', () => {
  it('only when asked: the hash of the bytes, and each included text once', () => {
    const setup = setupWith({ 'a.yaml': WITH_INCLUDE, 'texts/chat.txt': '\uFEFFOrder {{orderId}}\r\n' });
    const plain = checkDefinitionFile('a.yaml', setup);
    expect(plain).not.toHaveProperty('fingerprint');
    const outcome = checkDefinitionFile('a.yaml', { ...setup, fingerprint: true });
    expect(outcome).toEqual({
      ...plain,
      fingerprint: {
        hash: hashContent(readFileSync(path.join(setup.cwd, 'a.yaml'))),
        includes: [{ path: './texts/chat.txt', hash: hashContent('Order {{orderId}}') }],
      },
    });
    expect(outcome.diagnostics).toEqual([]);
  });

  it('for files with findings of any kind, but not for a reference that does not resolve', () => {
    const setup = {
      ...setupWith({ ...FILES, 'syntax.yaml': 'a: [\n', 'ref.yaml': WITH_INCLUDE }),
      fingerprint: true,
    };
    for (const file of [...Object.keys(FILES), 'syntax.yaml']) {
      const outcome = checkDefinitionFile(file, setup);
      expect(outcome.fingerprint, file).toEqual({
        hash: hashContent(readFileSync(path.join(setup.cwd, file))),
        includes: [],
      });
    }
    const unresolved = checkDefinitionFile('ref.yaml', setup);
    expect(unresolved.diagnostics.map((d) => d.code)).toEqual(['include-not-found', 'include-not-found']);
    expect(unresolved).not.toHaveProperty('fingerprint');
  });

  it('checkDefinitionBytes gives what checkDefinitionFile gives, and takes a known hash as is', () => {
    const setup = { ...setupWith(FILES), fingerprint: true };
    for (const file of Object.keys(FILES)) {
      const absolute = path.join(setup.cwd, file);
      const bytes = readFileSync(absolute);
      const source = { absolute, file, limits: setup.limits };
      expect(checkDefinitionBytes(bytes, source, setup), file).toEqual(checkDefinitionFile(file, setup));
      expect(checkDefinitionBytes(bytes, source, setup, 'known')?.fingerprint?.hash).toBe('known');
    }
  });
});
