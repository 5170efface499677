import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSchemaPath, readExistingFiles, writeScaffoldFile } from '../../../src/scaffold/files.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const tempDir = useTempProjects('wfsync-files-');

describe('detectSchemaPath', () => {
  it('the repository’s own schemas/ first', () => {
    const root = tempDir({
      'schemas/workflow.schema.json': '{}',
      'node_modules/wfsync/schemas/workflow.schema.json': '{}',
    });
    expect(detectSchemaPath(root)).toBe('./schemas/workflow.schema.json');
  });

  it('else the installed package, also when a monorepo hoisted it to a parent', () => {
    const top = tempDir({ 'node_modules/wfsync/schemas/workflow.schema.json': '{}' });
    const app = join(top, 'packages/app');
    mkdirSync(app, { recursive: true });
    expect(detectSchemaPath(app)).toBe('../../node_modules/wfsync/schemas/workflow.schema.json');
    expect(detectSchemaPath(top)).toBe('node_modules/wfsync/schemas/workflow.schema.json');
  });

  it('else where installing wfsync will put it', () => {
    expect(detectSchemaPath(tempDir())).toBe('node_modules/wfsync/schemas/workflow.schema.json');
  });
});

describe('reading and writing', () => {
  it('reads the files that exist; a missing one, or one under a file, is absent', async () => {
    const root = tempDir({ 'a/b.txt': 'B', file: 'F' });
    const existing = await readExistingFiles(root, ['a/b.txt', 'a/missing', 'file/under']);
    expect([...existing]).toEqual([['a/b.txt', 'B']]);
  });

  it('a path that cannot be read is an error, before anything is written', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.gitignore'));
    await expect(readExistingFiles(root, ['.gitignore'])).rejects.toThrow(
      /^cannot read \.gitignore: is a directory/,
    );
  });

  it('create: makes the directories; never replaces a file that exists by then', async () => {
    const root = tempDir();
    await writeScaffoldFile(root, '.github/workflows/x.yml', 'new\n', 'create');
    expect(readFileSync(join(root, '.github/workflows/x.yml'), 'utf8')).toBe('new\n');
    await expect(writeScaffoldFile(root, '.github/workflows/x.yml', 'other\n', 'create')).rejects.toThrow(
      '.github/workflows/x.yml was created by something else meanwhile; nothing was written to it',
    );
    expect(readFileSync(join(root, '.github/workflows/x.yml'), 'utf8')).toBe('new\n');
  });

  it('never writes through a symbolic link: the file or a folder on the way, named in the error', async () => {
    const root = tempDir({ 'shared/settings.json': 'old' });
    mkdirSync(join(root, '.vscode'));
    symlinkSync(join(root, 'shared/settings.json'), join(root, '.vscode/settings.json'));
    await expect(writeScaffoldFile(root, '.vscode/settings.json', 'new', 'replace')).rejects.toThrow(
      /^refusing to write through \.vscode\/settings\.json: it is a symbolic link \(the file itself\)/,
    );
    await expect(readExistingFiles(root, ['.vscode/settings.json'])).rejects.toThrow(
      /^refusing to write through \.vscode\/settings\.json/,
    );
    expect(lstatSync(join(root, '.vscode/settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'shared/settings.json'), 'utf8')).toBe('old');

    symlinkSync(join(root, 'shared'), join(root, '.github'));
    await expect(writeScaffoldFile(root, '.github/workflows/x.yml', 'new', 'create')).rejects.toThrow(
      /^refusing to write through \.github: it is a symbolic link \(a folder on the way to it\)/,
    );
    expect(readdirSync(join(root, 'shared'))).toEqual(['settings.json']);
  });

  it('a write that fails says which file and why', async () => {
    const root = tempDir({ '.vscode': 'a file where a directory should be' });
    await expect(writeScaffoldFile(root, '.vscode/settings.json', '{}', 'create')).rejects.toThrow(
      /^cannot write \.vscode\/settings\.json: /,
    );
  });
});
