// The part of undici that edp's API client uses, built on its own as one CommonJS file
// (dist/undici.cjs) so that it can be loaded with a V8 code cache (see undici.ts).
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';
