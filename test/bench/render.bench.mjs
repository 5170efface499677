// npm run bench:render — 1,000 steps rendered by wfsync's renderer (the service's helpers, context and escaping,
// findings included) vs a bare `Handlebars.compile(t)(data)` of the same templates with the same data, in one run.
// Every template is distinct (no compile cache helps either side). Prints the best of BENCH_RUNS rounds (default 5)
// for each and the ratio. Goal (issue 15): ≤ 1.5×. The renderer is bundled from src/render/ into a temporary
// directory first, as the build bundles it (rolldown, Node 20 target).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const STEPS = 1000;
// Inside the tree, so that the bundle resolves packages from this project's node_modules; removed at exit.
const out = mkdtempSync(join(root, '.bench-render-'));
await build({
  cwd: root,
  input: { render: 'src/render/index.ts' },
  platform: 'node',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  tsconfig: 'tsconfig.json',
  transform: { target: 'node20.19' },
  output: { dir: out, format: 'esm', entryFileNames: '[name].js' },
  logLevel: 'silent',
});
const { renderWorkflow, sampleData } = await import(pathToFileURL(join(out, 'render.js')).href);
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
const Handlebars = createRequire(import.meta.url)('handlebars');

/** 100 workflows of 10 steps: SMS, chat, push, in-app and customHtml email, each template unique. */
function workflows() {
  const out = [];
  for (let w = 0; w < STEPS / 10; w++) {
    const steps = [];
    for (let s = 0; s < 10; s++) {
      const n = w * 10 + s;
      const kind = ['sms', 'chat', 'push', 'in_app', 'email'][s % 5];
      const content =
        `Hi {{subscriber.firstName}}, order {{orderId}} (${n}, round ROUND) totals {{numberFormat amount}} on ` +
        `{{dateFormat createdAt "MMM d, yyyy"}}. {{#each items}}{{uppercase title}} x{{quantity}}; {{/each}}` +
        `{{#if vip}}Thanks for being VIP, {{titlecase customer.name}}!{{/if}}`;
      const template =
        kind === 'email'
          ? {
              type: 'email',
              contentType: 'customHtml',
              subject: `Order {{orderId}} #${n}`,
              content: `<p>${content}</p>`,
            }
          : kind === 'push'
            ? { type: 'push', title: `Order {{orderId}} #${n}`, content }
            : { type: kind, content };
      steps.push({ name: `s${n}`, template });
    }
    out.push({ name: `w${w}`, steps, triggers: [{ type: 'event', identifier: `w${w}` }] });
  }
  return out;
}

const list = workflows();
const data = list.map((workflow) => sampleData(workflow));
/** The same templates and data the bare side compiles: every string wfsync renders, with its context. */
const bare = list.flatMap((workflow, i) =>
  workflow.steps.flatMap((step) =>
    [step.template.subject, step.template.title, step.template.content]
      .filter((t) => typeof t === 'string')
      .map((t) => [t, { ...data[i].payload, subscriber: data[i].subscriber, step: {} }]),
  ),
);
const hb = Handlebars.create();
// The bare side needs the helpers to exist to render the same templates: trivial ones, so it measures Handlebars alone.
for (const name of ['numberFormat', 'dateFormat', 'uppercase', 'titlecase'])
  hb.registerHelper(name, (v) => String(v));

function timeBare(round) {
  const templates = bare.map(([t, d]) => [t.replaceAll('ROUND', String(round)), d]);
  const start = process.hrtime.bigint();
  let length = 0;
  for (const [t, d] of templates) length += hb.compile(t)(d).length;
  return [Number(process.hrtime.bigint() - start) / 1e6, length];
}

function timeWfsync(round) {
  // New templates each round: wfsync keeps compiled templates, which must not carry over.
  const workflows = list.map((workflow) =>
    JSON.parse(JSON.stringify(workflow).replaceAll('ROUND', String(round))),
  );
  const start = process.hrtime.bigint();
  let steps = 0;
  for (let i = 0; i < workflows.length; i++) {
    for (const step of renderWorkflow(workflows[i], data[i]).steps) {
      if (step.error !== undefined) throw new Error(`step ${step.name} failed: ${step.error}`);
      steps++;
    }
  }
  return [Number(process.hrtime.bigint() - start) / 1e6, steps];
}

let bestBare = Number.POSITIVE_INFINITY;
let bestOurs = Number.POSITIVE_INFINITY;
for (let round = 0; round < runs; round++) {
  bestBare = Math.min(bestBare, timeBare(round)[0]);
  const [ms, steps] = timeWfsync(round);
  if (steps !== STEPS) throw new Error(`rendered ${steps} steps, expected ${STEPS}`);
  bestOurs = Math.min(bestOurs, ms);
}
console.log(`render ${STEPS} steps (${bare.length} templates), best of ${runs}:`);
console.log(`  bare Handlebars.compile(t)(data)  ${bestBare.toFixed(1)} ms`);
console.log(`  wfsync renderWorkflow              ${bestOurs.toFixed(1)} ms`);
console.log(`  ratio ${(bestOurs / bestBare).toFixed(2)}× (goal ≤ 1.5×)`);
