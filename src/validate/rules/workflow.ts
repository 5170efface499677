/**
 * The definition types the rules read, generated from schemas/workflow.schema.json. Rules run only on definitions
 * that passed that schema, so these hold; where a rule reasons about which keys are present it reads records.
 */
export type {
  FilterPart,
  StepFilter,
  StepMetadata,
  StepTemplate,
  TemplateVariable,
  TriggerDefinition,
  WorkflowDefinition,
  WorkflowStep,
} from '../../generated/workflow.js';
