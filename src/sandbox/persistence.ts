import type { FastifyInstance, FastifyRequest } from 'fastify';
import { stringifyJson } from '../util/json.js';
import { SandboxError, errorBody } from './errors.js';
import type { Store } from './state.js';

/**
 * With --state, no answer goes out while a change it may show or acknowledge is not yet in
 * the state file: an answer given is a change kept, even after `kill -9`. Answers given while
 * nothing is unsaved (most reads) wait for nothing, and reads never cause a write.
 */
export function answerAfterSave(app: FastifyInstance, store: Store): void {
  const changesAtStart = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request) => {
    changesAtStart.set(request, store.changeCount);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!store.unsaved) return payload;
    const changedHere = store.changeCount > (changesAtStart.get(request) ?? store.changeCount);
    // While saving fails, a read does not retry it (only the next change does) and is answered.
    if (!changedHere && store.saveFailing) return payload;
    try {
      await store.saved();
      return payload;
    } catch {
      if (!changedHere) return payload;
      // The change is made in memory but not kept: say so rather than acknowledge it.
      const err = new SandboxError(500, 'internal_error', 'The change was made but could not be saved to the state file; it is saved with the next change that can be.');
      reply.code(500).type('application/json');
      return stringifyJson(errorBody(request.url, err));
    }
  });
}
