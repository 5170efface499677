import { describe, expect, it } from 'vitest';
import { notADefinition } from '../../../src/check/not-a-definition.js';
import { parseDefinition } from '../../../src/definitions/parse.js';

const check = (text: string) =>
  notADefinition(parseDefinition('x.yaml', new TextEncoder().encode(text)), 'x.yaml');

describe('notADefinition', () => {
  it('a mapping with none of a workflow key: one finding at the file start, saying what it looks like', () => {
    expect(check('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n')).toMatchObject({
      code: 'not-a-definition',
      severity: 'error',
      file: 'x.yaml',
      line: 1,
      column: 1,
      pointer: '',
    });
    expect(check('apiVersion: v1\nkind: ConfigMap\n')?.message).toContain(
      'it looks like a Kubernetes manifest (apiVersion, kind)',
    );
    expect(check('services:\n  web: { image: nginx }\n')?.message).toContain('a Docker Compose file');
    expect(check('on: push\njobs: {}\n')?.message).toContain('a GitHub Actions workflow');
    expect(check('a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n')?.message).toContain(
      'its top-level keys are a, b, c, d, …',
    );
    expect(check('a: 1\n')?.message).toContain('`exclude` in wfsync.config.yaml');
  });

  it('several documents (a multi-document manifest) with no workflow key', () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\n---\napiVersion: v1\nkind: Service\n';
    expect(check(text)?.message).toContain('a Kubernetes manifest');
  });

  it('a definition with mistakes is one (the schema says what is wrong), and so is anything not a mapping', () => {
    expect(check('name: x\nkind: oops\n')).toBeUndefined();
    expect(check('triggers: [{ identifier: a }]\n')).toBeUndefined();
    expect(check('name: x\n---\nname: y\n')).toBeUndefined();
    expect(check('- a\n- b\n')).toBeUndefined();
    expect(check('')).toBeUndefined();
    expect(check('name: [unclosed\n')).toBeUndefined();
  });
});
