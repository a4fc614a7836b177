export { startSandbox, type Sandbox } from './server.js';
export { defaultSandboxOptions, type SandboxOptions } from './options.js';
export { Store } from './store.js';
export { isLoopbackAddress, CONTROL_TOKEN_HEADER } from './admin.js';
export { MAX_BODY_DEPTH, MAX_BODY_VALUES } from './limits.js';
export { startPackagedSandbox } from './public.js';
export { checkFixture, readFixture } from './fixture/read.js';
export type { Fixture, FixtureInput } from './fixture/schema.js';
