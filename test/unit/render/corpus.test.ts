import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { renderTemplate } from '../../../src/render/engine.js';
import { type RenderData, renderWorkflow } from '../../../src/render/index.js';

// The corpus: each case's expected output (or failure message) is what the service's own code produced (see
// test/fixtures/render-corpus/README.md); wfsync must produce the same bytes.
const dir = path.join(import.meta.dirname, '../../fixtures/render-corpus');

interface Case {
  name: string;
  template: string;
  data: Record<string, unknown>;
  source: string;
  expected: { output: string } | { error: string };
}

const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('render corpus', () => {
  it('has cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });
  for (const file of files) {
    const cases = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Case[];
    describe(file, () => {
      for (const c of cases) {
        it(c.name, () => {
          let actual: { output: string } | { error: string };
          try {
            actual = { output: renderTemplate(c.template, structuredClone(c.data)) };
          } catch (error) {
            actual = { error: error instanceof Error ? error.message : String(error) };
          }
          expect(actual).toEqual(c.expected);
        });
      }
    });
  }
});

interface StepCase {
  name: string;
  template: Record<string, unknown>;
  data: RenderData;
  source: string;
  expected: Record<string, unknown>;
}

describe('render corpus: steps', () => {
  const cases = JSON.parse(readFileSync(path.join(dir, 'steps/steps.json'), 'utf8')) as StepCase[];
  for (const c of cases) {
    it(c.name, () => {
      const workflow = {
        name: 'w',
        steps: [{ name: 's', template: c.template }],
        triggers: [],
      } as unknown as WorkflowDefinition;
      const [step] = renderWorkflow(workflow, structuredClone(c.data)).steps;
      const { url, buttons, ...rest } = c.expected;
      const actual: Record<string, unknown> = {};
      for (const key of ['subject', 'preheader', 'senderName', 'title', 'content', 'error'] as const) {
        if (step?.[key] !== undefined) actual[key] = step[key];
      }
      if (step?.error !== undefined) {
        expect({ error: step.error }).toEqual(rest);
        return;
      }
      if (c.template.type === 'in_app' && c.template.cta !== undefined)
        expect(step?.cta).toEqual({ url, buttons });
      expect(actual).toEqual(rest);
    });
  }
});

describe('render corpus: nothing on the console', () => {
  it('a full render of every case, and of every case with its data behind a prototype, calls no console method', () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    try {
      const cases = files.flatMap((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Case[]);
      for (const c of cases) {
        // Behind a prototype, every top-level read is one Handlebars denies (and would log, name and all).
        for (const data of [structuredClone(c.data), Object.create(structuredClone(c.data))]) {
          try {
            renderTemplate(c.template, data);
          } catch {
            // The corpus's failures are the service's; only the console matters here.
          }
        }
      }
      const steps = JSON.parse(readFileSync(path.join(dir, 'steps/steps.json'), 'utf8')) as StepCase[];
      for (const c of steps) {
        const workflow = { name: 'w', steps: [{ name: 's', template: c.template }], triggers: [] };
        renderWorkflow(workflow as unknown as WorkflowDefinition, structuredClone(c.data));
      }
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
