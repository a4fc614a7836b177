// The part of undici that edp's API client uses, built on its own as one CommonJS file
// (dist/undici.cjs) so that it can be loaded with a V8 code cache (see undici.ts).
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';

/**
 * undici's ProxyAgent, for a run through a proxy (src/http/proxy.ts). Required where it is
 * called: the bundle initializes that part of undici (and the SOCKS client it brings) only
 * then, so a run without a proxy runs none of its code. The agent opens its tunnels with the
 * Dispatcher's connect(), which undici's package index, not loaded here, installs on every
 * Dispatcher (as the same step of src/http/undici.ts does from the sources).
 */
export function proxyAgent(): typeof import('undici').ProxyAgent {
  /* eslint-disable @typescript-eslint/no-require-imports -- esbuild initializes a required module where require() is called, an imported one when the bundle loads */
  const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: { connect?: unknown } };
  dispatcher.prototype.connect ??= require('undici/lib/api/api-connect.js');
  return require('undici/lib/dispatcher/proxy-agent.js') as typeof import('undici').ProxyAgent;
  /* eslint-enable @typescript-eslint/no-require-imports */
}
