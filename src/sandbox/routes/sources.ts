import type { SandboxArea } from '../area.js';
import { accountRoutes } from './sources/accounts.js';
import { connectionRoutes } from './sources/connections.js';
import { linkRoutes, seedLinks } from './sources/links.js';

/**
 * Data sources, connections, accounts (v3 and v3.1) and external authentication links
 * (docs/contract-rules.md, Endpoints). Data sources, connections and accounts are seeded by the
 * core; this area adds the links.
 */
export const sourcesArea: SandboxArea = {
  name: 'sources',
  init(store) {
    store.state.external_auth_links ??= [];
    store.state.outbox ??= [];
  },
  seed(store) {
    seedLinks(store);
  },
  routes(app, store) {
    connectionRoutes(app, store);
    accountRoutes(app, store);
    linkRoutes(app, store);
  },
};
