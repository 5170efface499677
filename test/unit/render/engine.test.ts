import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerServiceHelpers } from '../../../src/render/helpers.js';

// renderTemplate compiles the program the checks parsed (Handlebars' parser, before its whitespace pass) instead of
// parsing the text again. These tests run the corpus through that path, in fresh modules so that no template was
// compiled from its text before, and check that no walker sees the program once the compiler has rewritten it.
const dir = path.join(import.meta.dirname, '../../fixtures/render-corpus');

interface Case {
  name: string;
  template: string;
  data: Record<string, unknown>;
  expected: { output: string } | { error: string };
}

const cases = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Case[]);

async function freshModules() {
  vi.resetModules();
  const engine = await import('../../../src/render/engine.js');
  const { parseTemplate } = await import('../../../src/derive/parse-template.js');
  return {
    renderTemplate: engine.renderTemplate,
    handlebarsEnvironment: engine.handlebarsEnvironment,
    parseTemplate,
  };
}

describe('renderTemplate from the checks’ parse', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('renders every corpus case byte for byte when compiling the parsed program', async () => {
    const { renderTemplate, parseTemplate } = await freshModules();
    let fromProgram = 0;
    const mismatches: string[] = [];
    for (const c of cases) {
      const parsed = parseTemplate(c.template);
      if (parsed.ok && parsed.handlebars === true) fromProgram++;
      let actual: Case['expected'];
      try {
        actual = { output: renderTemplate(c.template, structuredClone(c.data)) };
      } catch (error) {
        actual = { error: error instanceof Error ? error.message : String(error) };
      }
      if (JSON.stringify(actual) !== JSON.stringify(c.expected)) mismatches.push(c.name);
    }
    expect(mismatches).toEqual([]);
    // The path under test is taken: most corpus templates need Handlebars' parser (literals, hashes, sub-expressions).
    expect(fromProgram).toBeGreaterThan(cases.length / 2);
  });

  it('takes the program out of the parse memo: a later parse sees the text as written, not the compiled program', async () => {
    const { renderTemplate, parseTemplate } = await freshModules();
    // Standalone blocks and `~`: the whitespace pass rewrites the content nodes and strip flags of this program.
    const template = 'Hi\n  {{#if a}}\n  {{~uppercase b}} \n  {{/if}}\n';
    const before = parseTemplate(template);
    expect(before.ok && before.handlebars).toBe(true);
    const asParsed = JSON.stringify(before.ok ? before.program : undefined);
    const bare = Handlebars.create();
    registerServiceHelpers(bare);
    const expected = bare.compile(template)({ a: true, b: 'b' }, {});
    expect(renderTemplate(template, { a: true, b: 'b' })).toBe(expected);
    const after = parseTemplate(template);
    expect(after).not.toBe(before);
    expect(JSON.stringify(after.ok ? after.program : undefined)).toBe(asParsed);
    // And the program the compiler took was indeed rewritten (else this test would prove nothing).
    expect(JSON.stringify(before.ok ? before.program : undefined)).not.toBe(asParsed);
  });
});

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

function spyOnConsole() {
  return CONSOLE_METHODS.map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
}

describe('the Handlebars environment wfsync renders with', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is a private environment whose logger writes nothing, whatever the level', async () => {
    const { handlebarsEnvironment } = await freshModules();
    const env = handlebarsEnvironment();
    expect(env).not.toBe(Handlebars);
    const spies = spyOnConsole();
    for (const level of ['debug', 'info', 'warn', 'error', 0, 3]) {
      env.log(level as number, 'from the log helper');
      env.logger.log(level as number, 'from the prototype-access check');
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('denies prototype reads as the service does, without the warning that quotes the name', async () => {
    const { renderTemplate, handlebarsEnvironment } = await freshModules();
    const spies = spyOnConsole();
    const name = '\n::error::pwned\u001b]8;;http://evil\u0007';
    const data = { a: Object.create({ [name]: 'inherited' }), s: 'abc' };
    expect(renderTemplate(`{{lookup a "${name}"}}|{{s.toUpperCase}}|{{a.toString}}|{{s.length}}`, data)).toBe(
      '|||3',
    );
    // Compiled straight from the environment (no runtime options): still nothing on the console.
    expect(handlebarsEnvironment().compile('{{a.valueOf}}')({ a: {} })).toBe('');
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
