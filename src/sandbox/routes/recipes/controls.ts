import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { SandboxError, badRequest, notFound } from '../../errors.js';
import type { ControlBody, IdParams } from '../../http.js';
import { idOf } from '../../../util/json.js';
import type { Store } from '../../store.js';
import type { ExtractionBehavior } from '../../types.js';
import { BUILD_ERROR_CODES } from './build-errors.js';
import { nextRecipeId, normalizeRecipeId, type RecipeFaults } from './model.js';
import { equipWorkspace } from './seed.js';

const BEHAVIORS: ExtractionBehavior[] = ['delivers', 'never_delivers', 'fails', 'slow'];
const ONE_SHOT_FAULTS = [
  'data_table_reservation_failed',
  'account_check_unavailable',
  'delete_incomplete',
  'destination_unavailable',
  'existing_ids_lost',
] as const;

/**
 * `template_read_failed: N`: the next N v3.1 template reads (list or detail) answer 500, a
 * fault the client does not repeat on its own (a shared read that failed once). Armed through
 * the faults control; `failRead` is the template reads' preHandler.
 */
export class TemplateReadFault {
  remaining = 0;
  readonly failRead: preHandlerHookHandler = (request, _reply, done) => {
    // HEAD, answered by the GET route, is not a read the fault counts.
    if (request.method === 'GET' && this.remaining > 0) {
      this.remaining--;
      return done(new SandboxError(500, 'internal_error', 'A server error occurred.'));
    }
    done();
  };
}

/**
 * Sandbox-only controls for recipe scenarios, under /_sandbox/recipes/ (no authentication, like
 * the other controls): arm one-shot faults, make the next build of a recipe fail with a given
 * build error, hold an output name outside the API, change a template, choose how extractions
 * behave, switch the v3 operations off (410), and equip a workspace made through the API with
 * connections and a destination.
 */
export function recipeControls(app: FastifyInstance, store: Store, templateReadFault: TemplateReadFault): void {
  const s = () => store.state;

  app.post<{ Body: ControlBody }>('/_sandbox/recipes/faults', async (request) => {
    const body = request.body ?? {};
    const faults = s().recipe_faults;
    for (const name of [...ONE_SHOT_FAULTS, 'template_read_failed'] as const) {
      const n = body[name];
      if (n === undefined) continue;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        throw badRequest(`${name} must be a count of requests`);
      if (name === 'template_read_failed') templateReadFault.remaining = n;
      else faults[name as keyof Omit<RecipeFaults, 'build_errors'>] = n;
    }
    return { ...faults, template_read_failed: templateReadFault.remaining };
  });

  app.post<{ Body: ControlBody }>('/_sandbox/recipes/build-errors', async (request) => {
    const body = request.body ?? {};
    const id = normalizeRecipeId(String(body.recipe_id ?? ''));
    if (!id || !s().recipes.some((r) => r.id === id)) throw notFound('No such recipe.');
    const code = body.code;
    if (typeof code !== 'string' || !BUILD_ERROR_CODES.includes(code))
      throw badRequest(`code must be one of ${BUILD_ERROR_CODES.join(', ')}`);
    const armed: RecipeFaults['build_errors'][string] = { code };
    if (typeof body.stage === 'string' || body.stage === null) armed.stage = body.stage;
    if (typeof body.message === 'string') armed.message = body.message;
    if (body.details && typeof body.details === 'object') armed.details = body.details as Record<string, unknown>;
    s().recipe_faults.build_errors[id] = armed;
    return { recipe_id: id, ...armed };
  });

  app.post<{ Body: ControlBody }>('/_sandbox/recipes/view-claims', async (request) => {
    const body = request.body ?? {};
    const wsId = idOf(body.workspace_id);
    if (wsId === undefined || !store.workspace(wsId)) throw badRequest('workspace_id must name a workspace');
    if (typeof body.view_name !== 'string' || body.view_name === '') throw badRequest('view_name is required');
    const claim = { workspace_id: wsId, view_name: body.view_name, recipe_id: nextRecipeId(store) };
    s().recipe_view_claims.push(claim);
    return claim;
  });

  app.patch<{ Params: IdParams; Body: ControlBody }>('/_sandbox/recipes/templates/:id', async (request) => {
    const template = s().recipe_templates.find((t) => t.id === Number(request.params.id));
    if (!template) throw notFound('No such template.');
    const body = request.body ?? {};
    if (typeof body.deployable === 'boolean') template.deployable = body.deployable;
    if (body.bump_revision === true) template.revision += 1;
    return template;
  });

  app.patch<{ Body: ControlBody }>('/_sandbox/recipes/extraction-behavior', async (request) => {
    const body = request.body ?? {};
    const behavior = body.behavior as ExtractionBehavior;
    if (!BEHAVIORS.includes(behavior)) throw badRequest(`behavior must be one of ${BEHAVIORS.join(', ')}`);
    const accountId = idOf(body.account_id);
    if (accountId !== undefined) {
      const account = s().accounts.find((a) => a.id === accountId);
      if (!account) throw notFound('No such account.');
      account.extraction_behavior = behavior;
      return { account_id: accountId, behavior };
    }
    const source = s().datasources.find((d) => d.name === body.datasource_name);
    if (!source) throw badRequest('name an account_id or a datasource_name');
    source.extraction_behavior = behavior;
    return { datasource_name: source.name, behavior };
  });

  app.patch<{ Body: ControlBody }>('/_sandbox/recipes/v3', async (request) => {
    const body = request.body ?? {};
    if (typeof body.switched_off !== 'boolean') throw badRequest('switched_off must be true or false');
    s().recipe_v3_switched_off = body.switched_off;
    return { switched_off: s().recipe_v3_switched_off };
  });

  // What a destination can do: host recipes (else 409 destination_not_supported) and report
  // whether tables exist (else 501 destination_check_unsupported on the extraction check). The
  // demo's only destination that cannot report tables cannot host recipes either, so without
  // this knob a client's handling of 501 could not be exercised.
  app.patch<{ Params: { name: string }; Body: ControlBody }>('/_sandbox/destinations/:name', async (request) => {
    const destination = s().destinations.find((d) => d.name === request.params.name);
    if (!destination) throw notFound('No such destination.');
    const body = request.body ?? {};
    for (const key of ['supports_recipes', 'reports_tables'] as const) {
      if (body[key] === undefined) continue;
      if (typeof body[key] !== 'boolean') throw badRequest(`${key} must be true or false`);
      destination[key] = body[key];
    }
    store.changed();
    return destination;
  });

  app.post<{ Body: ControlBody }>('/_sandbox/recipes/equip-workspace', async (request) => {
    const wsId = idOf((request.body ?? {}).workspace_id);
    if (wsId === undefined || !store.workspace(wsId)) throw badRequest('workspace_id must name a workspace');
    equipWorkspace(store, wsId);
    return { workspace_id: wsId };
  });
}
