import type { FastifyInstance } from 'fastify';
import type { Store } from './store.js';

/**
 * One area of the service in the sandbox: its collections, its demo data and its routes.
 * Area objects are shared by every sandbox in the process (tests start many), so anything
 * per sandbox lives in the store or is created in `routes` and released with
 * `app.addHook('onClose', …)`.
 */
export interface SandboxArea {
  name: string;
  /** Creates the area's collections when missing (also on a state loaded from a file). */
  init?(store: Store): void;
  /**
   * Adds what the service offers every agency to a fresh state (data sources, templates, system
   * roles): there with the demo data and with a fixture alike.
   */
  catalog?(store: Store): void;
  /** Adds demo data to a fresh state (deterministic per --seed); a fixture replaces it. */
  seed?(store: Store): void;
  /** Registers the area's routes and starts its background work. */
  routes(app: FastifyInstance, store: Store): void;
}
