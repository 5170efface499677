import fc from 'fast-check';
import { mutationProfile } from './helpers/fc-runs.js';

// Property tests explore new inputs on every local run; in CI they replay one fixed seed so a landing never hangs on
// a rare input found by chance (a failure found locally prints its seed: fix it, and add it as an example test).
// Mutation runs replay a fixed seed too, so a mutant's fate does not depend on chance (see test/helpers/fc-runs.ts).
if (process.env.CI || mutationProfile) fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261121) });
