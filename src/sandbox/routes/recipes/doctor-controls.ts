import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../../errors.js';
import { pathId, type ControlBody, type IdParams } from '../../http.js';
import type { Store } from '../../store.js';
import { normalizeRecipeId } from './model.js';

/** Old v3 account keys are shown as the internal id plus this offset: numbers the v3.1 accounts list never has. */
export const LEGACY_KEY_OFFSET = 900_000_000;

/**
 * Sandbox-only controls for the states `edp doctor` finds, under /_sandbox/: a destination
 * connection that goes inactive or is moved to a destination that cannot host recipes, an
 * account that goes inactive at the platform, and a recipe configured before v3.1 with the old
 * v3 account keys that configuration no longer accepts (docs/contract-rules.md, Versioning rule 4).
 */
export function doctorControls(app: FastifyInstance, store: Store): void {
  const s = () => store.state;

  app.patch<{ Params: IdParams; Body: ControlBody }>('/_sandbox/destination-connections/:id', async (request) => {
    const id = pathId(request.params.id);
    const dc = s().destination_connections.find((d) => d.id === id);
    if (!dc) throw notFound('No such destination connection.');
    const body = request.body ?? {};
    if (body.status !== undefined) {
      if (typeof body.status !== 'string' || body.status === '')
        throw badRequest('status must be a string such as active or inactive');
      dc.status = body.status;
    }
    if (body.destination_name !== undefined) {
      if (!s().destinations.some((d) => d.name === body.destination_name))
        throw badRequest(
          `destination_name must be one of ${s()
            .destinations.map((d) => d.name)
            .join(', ')}`,
        );
      dc.destination_name = body.destination_name as string;
    }
    store.changed();
    return dc;
  });

  app.patch<{ Params: IdParams; Body: ControlBody }>('/_sandbox/accounts/:id', async (request) => {
    const id = pathId(request.params.id);
    const account = s().accounts.find((a) => a.id === id);
    if (!account) throw notFound('No such account.');
    const body = request.body ?? {};
    if (body.is_active === undefined && body.title === undefined)
      throw badRequest('give is_active (true or false) and/or title');
    if (body.is_active !== undefined && typeof body.is_active !== 'boolean')
      throw badRequest('is_active must be true or false');
    if (body.title !== undefined && (typeof body.title !== 'string' || body.title.trim() === ''))
      throw badRequest('title must be a non-empty string');
    if (typeof body.title === 'string') account.title = body.title;
    if (typeof body.is_active === 'boolean') {
      account.is_active = body.is_active;
      if (!body.is_active) account.enabled_for_embedded_extraction = false;
    }
    store.changed();
    return { id: account.id, title: account.title, is_active: account.is_active };
  });

  app.post<{ Body: ControlBody }>('/_sandbox/recipes/legacy-keys', async (request) => {
    const id = normalizeRecipeId(String((request.body ?? {}).recipe_id ?? ''));
    const recipe = s().recipes.find((r) => r.id === id);
    if (!id || !recipe) throw notFound('No such recipe.');
    for (const c of recipe.connections)
      c.account_ids = c.account_ids.map((a) => (a >= LEGACY_KEY_OFFSET ? a : a + LEGACY_KEY_OFFSET));
    store.changed();
    return { recipe_id: id, connections: recipe.connections };
  });
}
