// Nothing to set up globally yet: `npm test` builds dist/ before vitest runs, so e2e tests spawn the real CLI.
export function setup(): void {}
