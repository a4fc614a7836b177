/**
 * The test helpers in one import: `import { cli, useSandbox, createRecipe } from '../support/index.js'`.
 * Each module stays where it is and is still imported directly; this only re-exports them.
 * README.md beside this file says what each is for and which to use when. A name two modules
 * use (`demo`, `Answer`) or too bare to stand alone (the proxy's `listen`) is renamed below;
 * test/build/support-index.test.ts holds the index to every value the modules export. Not here: the built-tool helpers of test/e2e (they need
 * `npm run build`), and the fixtures of one command's tests (`test/commands/<command>/fixtures.ts`),
 * but for the recipe tests' sandbox.
 */

// The CLI in-process, sandboxes, the sandbox's controls and clock, raw HTTP, waiting on a condition.
export * from '../helpers.js';
// The suite's parts (vitest.config.ts, npm run test:unit and the others).
export * from '../parts.js';

// Files and pacing.
export * from '../fixtures/files.js';
export * from '../fixtures/turns.js';

// The demo data and raw service calls, by area.
export {
  V3,
  V31,
  builtRecipe,
  configuration,
  configure,
  createRecipe,
  demo as recipeDemo,
  resetRecipes,
  waitBuilt,
} from '../fixtures/recipes.js';
export { bearer, demo as extractionDemo } from '../fixtures/extraction.js';
export * from '../fixtures/fleet.js';
export { useRecipeSandbox } from '../commands/recipes/fixtures.js';

// Webhook receivers and `edp webhooks listen`.
export { freePort, receiver, startListen, type Answer as ReceiverAnswer, type Received } from '../fixtures/webhooks.js';

// Answers checked against the OpenAPI document (every sandbox of `sandbox()` does it on close).
export { violationOf } from '../fixtures/openapi-check.js';

// Proxies in front of a sandbox: writes held until they race, faults by key, and the plumbing to write another.
export * from '../fixtures/held-writes.js';
export * from '../fixtures/keyed-faults.js';
export {
  forward,
  listen as listenProxy,
  passOrFail,
  reply,
  type Answer as ProxyAnswer,
  type Proxy,
} from '../fixtures/proxy.js';
