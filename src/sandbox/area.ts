import type { FastifyInstance } from 'fastify';
import type { Store } from './state.js';

/** One area of the service in the sandbox: its collections, its demo data and its routes. */
export interface SandboxArea {
  name: string;
  /** Creates the area's collections when missing (also on a state loaded from a file). */
  init?(store: Store): void;
  /** Adds demo data to a fresh state (deterministic per --seed). */
  seed?(store: Store): void;
  /** Registers the area's routes, and starts any background work (stopped by `close`). */
  routes(app: FastifyInstance, store: Store): void;
  close?(): void | Promise<void>;
}
