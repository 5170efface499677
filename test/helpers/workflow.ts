import { stringify } from 'yaml';
import type { WorkflowDefinition } from '../../src/generated/workflow.js';

/**
 * A valid workflow definition, as a test would write it in YAML: "order shipped", one in-app step reading
 * `{{orderId}}`, triggered by `order-shipped`. `overrides` replace top-level fields.
 */
export function aWorkflow(overrides: Partial<WorkflowDefinition> = {}): WorkflowDefinition {
  return {
    name: 'order shipped',
    steps: [{ name: 'inbox', template: { type: 'in_app', content: 'Order {{orderId}} shipped' } }],
    triggers: [{ type: 'event', identifier: 'order-shipped' }],
    ...overrides,
  };
}

/** aWorkflow called `name`, its trigger's identifier the name with dashes for spaces (`order shipped` → `order-shipped`). */
export function aWorkflowNamed(
  name: string,
  overrides: Partial<WorkflowDefinition> = {},
): WorkflowDefinition {
  return aWorkflow({
    name,
    triggers: [{ type: 'event', identifier: name.replace(/ /g, '-') }],
    ...overrides,
  });
}

/** A workflow definition as the YAML file a user writes: `aWorkflow()` unless another is given. */
export function aWorkflowYaml(workflow: WorkflowDefinition = aWorkflow()): string {
  return stringify(workflow);
}
