// Types for scripts/gen.mjs, so the drift test (test/unit/schemas/generated.test.ts) can import it under strict tsc.

import type { Options } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';

export interface SchemaSpec {
  file: string;
  typesModule: string;
  rootType: string;
  validator: string;
}

export declare const SCHEMAS: readonly SchemaSpec[];
export declare const CUSTOM_KEYWORDS: readonly string[];
export declare function createAjv(options?: Options): Ajv2020;
export declare function readSchema(file: string, root?: string): Record<string, unknown>;
/** Every generated file: path relative to the repository root → content. */
export declare function generate(root?: string): Promise<Map<string, string>>;
