import type { FastifyInstance } from 'fastify';
import type { SandboxArea } from '../area.js';
import type { Store } from '../store.js';
import { flowRoutes, iframePage, linkPage } from './flow.js';
import { parseForm } from './html.js';
import { inspectorRoutes } from './inspector.js';
import { LINK_PAGE_PATH } from '../routes/sources/links.js';
import { serve } from '../operations.js';
import { iframePageQuery } from '../../contract/requests.js';

/**
 * The sandbox's pages for people: the iframe page and the external authentication link page
 * (the client's side of a connection), an example of an operator's page embedding them, and
 * the inspector. The client's pages may be framed by any site (an operator embeds them); the
 * inspector and the example, like every /_sandbox/ answer, only by the sandbox's own pages.
 */
export const pagesArea: SandboxArea = {
  name: 'pages',
  routes(app: FastifyInstance, store: Store) {
    // The pages' forms post `application/x-www-form-urlencoded`; only here; the API takes JSON only.
    void app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, body, done) => done(null, parseForm(String(body))),
      );
      serve(scope, 'iframe.page', { config: { query: iframePageQuery } }, async (request, reply) =>
        iframePage(store, request, reply),
      );
      scope.get<{ Params: { token: string } }>(`${LINK_PAGE_PATH}:token`, async (request, reply) =>
        linkPage(store, request, reply),
      );
      flowRoutes(scope, store);
      inspectorRoutes(scope, app, store);
    });
  },
};
