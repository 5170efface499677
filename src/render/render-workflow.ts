/** Rendering a workflow's steps as the service renders them at send time (docs/rendering.md, "Channels"). */
import { scanTemplate } from '../derive/handlebars.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord } from '../json.js';
import { contextKeys, stepContext } from './context.js';
import { layoutBlocks } from './email-blocks.js';
import { renderTemplate } from './engine.js';
import { hiddenPayloadReads, notANumber } from './render-surprises.js';
import { sampleSystemData } from './sample-data.js';
import { checkTemplate } from './template-check.js';
import type { RenderData, RenderedStep, RenderedWorkflow, RenderFinding, RenderOptions } from './types.js';

/**
 * Every step (or the one `options.step` names) rendered with `data`. Never throws for bad templates: a step that
 * fails carries `error`, and a finding says where.
 */
export function renderWorkflow(
  workflow: WorkflowDefinition,
  data: RenderData,
  options: RenderOptions = {},
): RenderedWorkflow {
  const steps: unknown[] = Array.isArray(workflow?.steps) ? workflow.steps : [];
  const findings: RenderFinding[] = [];
  const rendered: RenderedStep[] = [];
  steps.forEach((step, index) => {
    if (selected(step, index, options.step)) rendered.push(renderStep(step, index, data, findings, true));
  });
  return { steps: rendered, findings };
}

/**
 * The findings renderWorkflow would give that can be told without running a template (unknown helpers, arity,
 * date patterns, comparison blocks, values that render empty): for `wfsync validate`, which cannot afford to
 * render every file. Never loads the Handlebars runtime.
 */
export function checkWorkflow(workflow: WorkflowDefinition, given?: RenderData): RenderFinding[] {
  const steps: unknown[] = Array.isArray(workflow?.steps) ? workflow.steps : [];
  const findings: RenderFinding[] = [];
  // Without data: the sample, whose payload holds every value the templates read (so only the service's own
  // variables are checked for emptiness, and the payload is not built at all). Built when a template first needs
  // it: most templates read no value that could be empty (template-check.ts).
  let sample: RenderData | undefined;
  const data = given ?? (() => (sample ??= sampleSystemData(workflow)));
  const systemOnly = given === undefined;
  steps.forEach((step, index) => {
    renderStep(step, index, data, findings, false, systemOnly);
  });
  return findings;
}

function selected(step: unknown, index: number, wanted: string | number | undefined): boolean {
  if (wanted === undefined) return true;
  if (typeof wanted === 'number') return wanted === index;
  return isRecord(step) && step.name === wanted;
}

/** One step's rendering: the strings it renders, each with its pointer, and the step's error if one fails. */
class StepRenderer {
  #context: Record<string, unknown> | undefined;

  constructor(
    readonly out: RenderedStep,
    /** The step's context, built on first use (checking alone rarely needs it). */
    readonly contextOf: () => Record<string, unknown>,
    readonly findings: RenderFinding[],
    readonly base: string,
    /** false: check only, each string "renders" as itself (checkWorkflow). */
    readonly run: boolean,
    /** Check only the service's own variables for emptiness (checkWorkflow on the sample). */
    readonly systemOnly = false,
    /** The payload's keys the service's own context hides in this step (the email body hides two more). */
    readonly shadowedOf: (body: boolean) => ReadonlySet<string> = () => new Set(),
  ) {}

  get context(): Record<string, unknown> {
    this.#context ??= this.contextOf();
    return this.#context;
  }

  /** `text` rendered (undefined/empty renders ''), findings for it added; undefined when it fails. */
  render(
    text: unknown,
    pointer: string,
    context: () => Record<string, unknown> = () => this.context,
    { body = false }: { body?: boolean } = {},
  ): string | undefined {
    const source = typeof text === 'string' ? text : '';
    const at = `${this.base}${pointer}`;
    const before = this.findings.length;
    let built: Record<string, unknown> | undefined;
    const contextOnce = () => {
      built ??= context();
      return built;
    };
    if (source !== '') {
      const found = checkTemplate(source, at, contextOnce, { systemOnly: this.systemOnly });
      for (const finding of found) this.findings.push(finding);
      for (const finding of hiddenPayloadReads(source, at, this.shadowedOf(body)))
        this.findings.push(finding);
    }
    if (!this.run) return source;
    try {
      const rendered = renderTemplate(source, contextOnce());
      const nan = notANumber(rendered, source, at);
      if (nan !== undefined) this.findings.push(nan);
      return rendered;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.fail(message, at, source, before);
      return undefined;
    }
  }

  /** The step's error; a finding unless a positioned one already explains it. */
  fail(
    message: string,
    pointer: string,
    source = '',
    since = this.findings.length,
    { explain }: { explain?: string } = {},
  ): void {
    this.out.error ??= message;
    const explained = this.findings
      .slice(since)
      .some((f) => f.pointer === pointer && f.severity === 'error' && f.start !== undefined);
    if (explained) return;
    const parseError = source === '' ? undefined : scanTemplate(source).error;
    this.findings.push({
      code: 'render-failed',
      severity: 'error',
      message: explain === undefined ? message : `${explain} (${message})`,
      pointer,
      ...(parseError
        ? { start: parseError.offset, end: Math.min(parseError.offset + 1, source.length) }
        : {}),
    });
  }

  /** Flags HTML escapes the service puts into plain text (SMS, push, chat, subjects). */
  plain(rendered: string | undefined, source: unknown, pointer: string): string | undefined {
    if (!this.run || rendered === undefined || typeof source !== 'string') return rendered;
    const entity = /&(amp|lt|gt|quot|#x60|#x3D);/.exec(rendered)?.[0];
    if (entity !== undefined && !source.includes(entity)) {
      this.findings.push({
        code: 'render-surprise',
        severity: 'warning',
        message: `the text contains \`${entity}\`: the service HTML-escapes \`{{…}}\` values even in plain text; use \`{{{…}}}\` for this value`,
        pointer: `${this.base}${pointer}`,
      });
    }
    return rendered;
  }
}

function renderStep(
  step: unknown,
  index: number,
  data: RenderData | (() => RenderData),
  findings: RenderFinding[],
  run: boolean,
  systemOnly = false,
): RenderedStep {
  const template = isRecord(step) && isRecord(step.template) ? step.template : {};
  const type = typeof template.type === 'string' ? template.type : 'unknown';
  const name =
    isRecord(step) && typeof step.name === 'string' && step.name !== '' ? step.name : `${type} #${index}`;
  const out: RenderedStep = { index, name, type };
  // The context is copied only for a step that sorts (sortBy sorts the payload's arrays in place); checking only reads.
  const fresh = run && mutates(template);
  const dataOf = () => (typeof data === 'function' ? data() : data);
  const context = () => stepContext(type, dataOf(), { preheader: template.preheader, fresh });
  // The sample's payload holds no name of the service's own (derive keeps them off the trigger): only given data can.
  const shadowed = new Map<boolean, ReadonlySet<string>>();
  const shadowedOf = (body: boolean): ReadonlySet<string> => {
    let keys = shadowed.get(body);
    if (keys === undefined) {
      const payload = systemOnly ? undefined : dataOf().payload;
      keys = isRecord(payload)
        ? new Set(contextKeys(type, dataOf(), { body }).filter((key) => Object.hasOwn(payload, key)))
        : new Set<string>();
      shadowed.set(body, keys);
    }
    return keys;
  };
  const r = new StepRenderer(out, context, findings, `/steps/${index}/template`, run, systemOnly, shadowedOf);
  switch (type) {
    case 'email':
      renderEmail(r, template);
      break;
    case 'in_app':
      renderInApp(r, template);
      break;
    case 'sms':
    case 'chat':
    case 'push':
      out.content = r.plain(r.render(template.content, '/content'), template.content, '/content');
      if (type === 'push') out.title = r.plain(r.render(template.title, '/title'), template.title, '/title');
      out.contentType = 'text';
      // The service refuses to send an SMS whose text renders empty.
      if (type === 'sms' && run && out.content === '')
        r.fail('Unexpected error: SMS content is missing', `${r.base}/content`);
      break;
    default:
      // digest, delay, trigger, custom: nothing is rendered.
      break;
  }
  return out;
}

function renderInApp(r: StepRenderer, template: Record<string, unknown>): void {
  r.out.content = template.content ? r.render(template.content, '/content') : '';
  r.out.contentType = 'text';
  const cta = isRecord(template.cta) ? template.cta : undefined;
  if (cta === undefined) return;
  const result: NonNullable<RenderedStep['cta']> = {};
  const url = isRecord(cta.data) ? cta.data.url : undefined;
  if (url) result.url = r.render(url, '/cta/data/url');
  const buttons = isRecord(cta.action) && Array.isArray(cta.action.buttons) ? cta.action.buttons : undefined;
  if (buttons) {
    result.buttons = buttons.map((button: unknown, k) => {
      const b = isRecord(button) ? button : {};
      const content = r.render(b.content, `/cta/action/buttons/${k}/content`) ?? '';
      return { type: typeof b.type === 'string' ? b.type : 'primary', content };
    });
  }
  r.out.cta = result;
}

function renderEmail(r: StepRenderer, template: Record<string, unknown>): void {
  // Subject, preheader and sender name: rendered, then trimmed; preheader and sender name only when set.
  const trimmed = (text: unknown, pointer: string) => {
    const value = r.render(text, pointer);
    return value === undefined ? undefined : r.plain(value.trim(), text, pointer);
  };
  r.out.subject = trimmed(template.subject, '/subject');
  if (template.preheader) r.out.preheader = trimmed(template.preheader, '/preheader');
  if (template.senderName) r.out.senderName = trimmed(template.senderName, '/senderName');
  r.out.contentType = 'html';
  const body = () => ({
    ...r.context,
    subject: r.out.subject ?? '',
    preheader: r.out.preheader,
    body: '',
    blocks: [],
  });
  // No contentType means the editor, as in the service.
  if (template.contentType === 'customHtml') {
    r.out.content = r.render(template.content, '/content', body, { body: true });
    return;
  }
  if (typeof template.content === 'string' && template.content !== '') {
    // The service walks the string as blocks and fails setting the first "block"'s content.
    r.fail(
      `Cannot create property 'content' on string '${template.content[0]}'`,
      `${r.base}/content`,
      '',
      undefined,
      {
        explain:
          'the content is a string but `contentType` is not `customHtml`: the service reads it as editor blocks and fails',
      },
    );
    return;
  }
  if (!Array.isArray(template.content)) {
    r.out.content = layoutBlocks([]);
    return;
  }
  const blocks = template.content.map((block: unknown, k) => {
    const b = isRecord(block) ? block : {};
    const content = r.render(b.content, `/content/${k}/content`)?.trim() ?? '';
    const url = r.render(b.url, `/content/${k}/url`)?.trim() ?? '';
    const align =
      isRecord(b.styles) && typeof b.styles.textAlign === 'string' ? b.styles.textAlign : undefined;
    const kind: 'text' | 'button' = b.type === 'button' ? 'button' : 'text';
    return { type: kind, content, url, align };
  });
  if (!r.run) return; // checking only: the layout is not looked at
  const color = (r.context.branding as { color?: string } | undefined)?.color;
  r.out.content = layoutBlocks(blocks, color);
}

/** Whether a step's strings call `sortBy`, the one helper that changes the data it is given. */
function mutates(template: Record<string, unknown>): boolean {
  return JSON.stringify(template).includes('sortBy');
}
