import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type AgentClass from 'undici/lib/dispatcher/agent.js';
import type ProxyAgentClass from 'undici/lib/dispatcher/proxy-agent.js';
import type undiciRequest from 'undici/lib/api/api-request.js';
import { requireBuilt } from '../util/commonjs.js';

/** The file name of the CommonJS undici build beside the bundle (set by build.mjs; unset when run from source). */
declare const __EDP_UNDICI_CJS__: string;

export interface Undici {
  Agent: typeof AgentClass;
  request: typeof undiciRequest;
  /** undici's ProxyAgent, loaded on the first call: only a run through a proxy needs it. */
  proxyAgent(): typeof ProxyAgentClass;
}

let loaded: Undici | undefined;

/**
 * undici's Agent and request API. The built command line has them in one CommonJS file beside
 * the bundle, which the launcher compiles with a V8 code cache: a run then skips parsing and
 * compiling undici, which otherwise costs more than the request itself. From the sources they
 * come from the package.
 */
export function loadUndici(): Undici {
  if (loaded) return loaded;
  if (typeof __EDP_UNDICI_CJS__ !== 'undefined') {
    const file = join(dirname(fileURLToPath(import.meta.url)), __EDP_UNDICI_CJS__);
    loaded = requireBuilt(file, 'undici') as Undici;
  } else {
    const require = createRequire(import.meta.url);
    loaded = {
      Agent: require('undici/lib/dispatcher/agent.js'),
      request: require('undici/lib/api/api-request.js'),
      // As undici-bundle.ts does: the tunnel is opened with connect(), which the index installs.
      proxyAgent: () => {
        const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: { connect?: unknown } };
        dispatcher.prototype.connect ??= require('undici/lib/api/api-connect.js');
        return require('undici/lib/dispatcher/proxy-agent.js');
      },
    };
  }
  return loaded;
}
