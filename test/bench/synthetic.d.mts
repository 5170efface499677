/** Types of synthetic.mjs, for the tests that import it (crash test). */
export function syntheticDefinition(i: number, options?: { prefix?: string }): string;
