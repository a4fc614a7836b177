export { startSandbox, type Sandbox } from './server.js';
export { defaultSandboxOptions, type SandboxOptions, Store } from './state.js';
