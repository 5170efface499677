import fc from 'fast-check';

// Property tests explore new inputs on every local run; in CI they replay one fixed seed so a landing never hangs on
// a rare input found by chance (a failure found locally prints its seed: fix it, and add it as an example test).
if (process.env.CI) fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261121) });
