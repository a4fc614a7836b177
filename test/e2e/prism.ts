import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { configureExtensionsUserProvided } from '@stoplight/prism-cli/dist/extensions.js';
import type { createLogger } from '@stoplight/prism-core';
import type { getHttpOperationsFromSpec, IHttpConfig } from '@stoplight/prism-http';
import type { createServer } from '@stoplight/prism-http-server';
import { ROOT } from './helpers.js';

/**
 * Stoplight's Prism (the pinned @stoplight/prism-cli) serving one OpenAPI document as the
 * servers of its commands:
 * - `proxy`: `prism proxy DOCUMENT UPSTREAM --errors`;
 * - `mock`: `prism mock DOCUMENT`;
 * - `randomMock`: `prism mock DOCUMENT --dynamic --seed 7`.
 *
 * They are built as prism-cli builds them (`createPrismServerWithLogger` in its
 * dist/util/createServer.js), with the options its commands give, but in this process: Prism
 * loads and reads the document once instead of three times, which took most of a file's
 * start-up. Only what is around the servers differs: no watcher of the document, and no log
 * (Prism's log is for a person; the proxy's verdict is its answer, 422 or 500, which edp shows).
 * Sharing Prism's modules changes no answer: only the dynamic mock generates with
 * json-schema-faker, and it seeds the generator afresh for each answer (so its answers do not
 * depend on the order requests come in either); the others sample statically or forward.
 */
export type PrismServer = 'proxy' | 'mock' | 'randomMock';
export type PrismServers = Record<PrismServer, string> & { close(): Promise<void> };

/** Prism's packages as prism-cli itself resolves them. */
const prismRequire = createRequire(join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'));

export async function startPrism(document: string, upstream: string): Promise<PrismServers> {
  const { getHttpOperationsFromSpec: operationsOf } = prismRequire('@stoplight/prism-http') as {
    getHttpOperationsFromSpec: typeof getHttpOperationsFromSpec;
  };
  const { createServer: serverOf } = prismRequire('@stoplight/prism-http-server') as {
    createServer: typeof createServer;
  };
  const { createLogger: loggerOf } = prismRequire('@stoplight/prism-core') as { createLogger: typeof createLogger };
  const { configureExtensionsUserProvided: configureGenerator } = prismRequire('./extensions.js') as {
    configureExtensionsUserProvided: typeof configureExtensionsUserProvided;
  };

  const operations = await operationsOf(document);
  // The generator's settings: the document's x-json-schema-faker, then the command's (none given).
  await configureGenerator(document, { fillProperties: undefined });
  const logger = loggerOf('CLI', { level: 'silent' }).child({ name: 'HTTP SERVER' });

  // The configuration prism-cli makes of each command's options (where it passes an option not
  // given, undefined or null, this leaves it out or says false: Prism reads them alike).
  const shared = { validateRequest: true, validateResponse: true, checkSecurity: true, upstreamProxy: undefined };
  const configs: Record<PrismServer, IHttpConfig> = {
    proxy: { ...shared, errors: true, isProxy: true, upstream: new URL(upstream), mock: { dynamic: false } },
    mock: { ...shared, errors: false, isProxy: false, mock: { dynamic: false, ignoreExamples: false } },
    randomMock: { ...shared, errors: false, isProxy: false, mock: { dynamic: true, ignoreExamples: false, seed: '7' } },
  };

  const servers = (Object.keys(configs) as PrismServer[]).map((name) => ({
    name,
    server: serverOf(operations, { cors: true, config: configs[name], components: { logger } }),
  }));
  const urls = await Promise.all(servers.map(({ server }) => server.listen(0, '127.0.0.1')));
  return {
    ...(Object.fromEntries(servers.map(({ name }, i) => [name, urls[i]!])) as Record<PrismServer, string>),
    close: async () => {
      await Promise.all(servers.map(({ server }) => server.close()));
    },
  };
}
