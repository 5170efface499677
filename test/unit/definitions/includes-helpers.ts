import { cpSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ReadResult, readDefinitions } from '../../helpers/read-definitions.js';
import { useTempDir } from './helpers.js';

/** A project whose email step keeps its subject and HTML in files next to the definition. */
export const INCLUDES_PROJECT = fileURLToPath(new URL('../../fixtures/includes/project/', import.meta.url));

export async function write(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

/** A fresh temp copy of the includes project per call (removed after each test). */
export function useIncludesProject(): () => Promise<string> {
  const tempDir = useTempDir();
  return async () => {
    const dir = await tempDir();
    cpSync(INCLUDES_PROJECT, dir, { recursive: true });
    return dir;
  };
}

/** `wfsync validate`'s read of the project's workflows directory. */
export function readWorkflows(cwd: string, maxBytes?: number): Promise<ReadResult> {
  return readDefinitions([], {
    cwd,
    defaultDir: 'workflows',
    ...(maxBytes === undefined ? {} : { limits: { maxBytes } }),
  });
}

/** One email step whose content is a reference written as given (YAML flow), the rest minimal and valid. */
export function emailWithContent(reference: string, subject = 'Hello'): string {
  return [
    'name: welcome',
    'steps:',
    '  - name: welcome email',
    '    template:',
    '      type: email',
    `      subject: ${subject}`,
    `      content: ${reference}`,
    'triggers:',
    '  - type: event',
    '    identifier: welcome',
    '',
  ].join('\n');
}
