/** Rendering a workflow's steps: which strings of each step are rendered, with which context. */
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord } from '../json.js';
import { renderEngine } from './engine.js';
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
    if (!selected(step, index, options.step)) return;
    rendered.push(renderStep(step, index, data, findings));
  });
  return { steps: rendered, findings };
}

function selected(step: unknown, index: number, wanted: string | number | undefined): boolean {
  if (wanted === undefined) return true;
  if (typeof wanted === 'number') return wanted === index;
  return isRecord(step) && step.name === wanted;
}

function renderStep(step: unknown, index: number, data: RenderData, findings: RenderFinding[]): RenderedStep {
  const template = isRecord(step) && isRecord(step.template) ? step.template : {};
  const type = typeof template.type === 'string' ? template.type : 'unknown';
  const name = isRecord(step) && typeof step.name === 'string' ? step.name : `${type} #${index}`;
  const out: RenderedStep = { index, name, type };
  const context = {
    ...data.payload,
    subscriber: data.subscriber,
    step: {
      events: data.events ?? [],
      total_count: data.events?.length ?? 0,
      digest: data.events !== undefined,
    },
    branding: data.branding ?? {},
  };
  const base = `/steps/${index}/template`;
  const render = (text: unknown, pointer: string): string | undefined => {
    if (typeof text !== 'string') return undefined;
    try {
      return renderEngine().compile(text)(context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      out.error ??= message;
      findings.push({ code: 'render-failed', severity: 'error', message, pointer: `${base}${pointer}` });
      return undefined;
    }
  };
  if (type === 'email') {
    out.subject = render(template.subject, '/subject')?.trim();
    out.preheader = render(template.preheader, '/preheader')?.trim();
    out.senderName = render(template.senderName, '/senderName')?.trim();
    if (Array.isArray(template.content)) {
      out.content = template.content
        .map((block, k) => (isRecord(block) ? (render(block.content, `/content/${k}/content`) ?? '') : ''))
        .join('\n');
    } else {
      out.content = render(template.content, '/content');
    }
    out.contentType = 'html';
  } else if (type === 'sms' || type === 'chat' || type === 'push' || type === 'in_app') {
    out.content = render(template.content, '/content');
    out.contentType = 'text';
    if (type === 'push') out.title = render(template.title, '/title');
    if (type === 'in_app' && isRecord(template.cta) && isRecord(template.cta.data)) {
      out.cta = { url: render(template.cta.data.url, '/cta/data/url') };
    }
  }
  return out;
}
