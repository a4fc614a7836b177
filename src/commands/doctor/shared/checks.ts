import { checkExtractions, listRecipes, readRecipe, type Recipe } from '../../../api/recipes.js';
import type { Service } from '../../../api/service.js';
import { listAccounts, type AccountV31 } from '../../../api/accounts.js';
import { listDestinationConnections, listDestinations } from '../../../api/destinations.js';
import { listWebhookEndpoints, SILENT_EVENT_TYPES } from '../../../api/webhooks.js';
import { listWorkspaces } from '../../../api/workspaces.js';
import { ApiError, AuthRequiredError, NetworkError, OutcomeUnknownError } from '../../../errors.js';
import { errorJson } from '../../../output/errors.js';
import { collect } from '../../../util/collect.js';
import { idText, jsonInteger } from '../../../util/json.js';
import { suggest } from '../../../util/suggest.js';
import { credentialsNextStep } from '../../../output/next-steps.js';

/** Something that needs action, with the command that fixes it. */
export interface Finding {
  workspace_id: unknown;
  check: 'service' | 'credentials' | 'workspace' | 'token' | 'destination' | 'recipes' | 'webhooks';
  code: string;
  message: string;
  fix: string;
  recipe_id?: unknown;
  endpoint_id?: unknown;
  trace_id?: string | null;
  /** the check could not be made (service unreachable, credentials refused): exit 12, not 1 */
  unchecked?: boolean;
}

/**
 * A check that could not be made, as a finding: an unreachable service names its address and
 * is not a credentials problem; credentials refused or missing; anything else as what it is.
 */
export function uncheckedFinding(err: unknown, workspace: string | null, baseUrl: string): Finding {
  const workspace_id = workspace === null ? null : jsonInteger(workspace);
  const trace_id = (errorJson(err).error as { trace_id?: string | null }).trace_id ?? null;
  if (err instanceof NetworkError || (err instanceof OutcomeUnknownError && !(err.cause instanceof ApiError)))
    return {
      workspace_id,
      check: 'service',
      code: 'service_unreachable',
      message: `the service at ${new URL(baseUrl).origin} could not be reached: ${err.message}`,
      fix: `start the service or correct its address: --base-url URL, EDP_BASE_URL, or \`${suggest(['config', 'set', 'base_url', 'URL'])}\``,
      unchecked: true,
    };
  if (err instanceof AuthRequiredError || (err instanceof ApiError && err.status === 401))
    return {
      workspace_id,
      check: 'credentials',
      code: err instanceof ApiError ? 'authentication_failed' : 'no_credentials',
      message: `the agency credentials were ${err instanceof ApiError ? 'refused' : 'not found'} (${describe(err)})`,
      fix: credentialsNextStep(err instanceof ApiError),
      trace_id,
      unchecked: true,
    };
  return {
    workspace_id,
    check: workspace === null ? 'service' : 'workspace',
    code: 'check_failed',
    message: `could not be checked: ${describe(err)}`,
    fix: `${suggest(['doctor', '--verbose'], { workspace: workspace ?? undefined })}   (see which request failed)`,
    trace_id,
    unchecked: true,
  };
}

const describe = (err: unknown) => {
  const e = errorJson(err).error as { status?: number | null; code?: string | null; message?: string };
  return `${e.status ? `${e.status} ` : ''}${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`;
};

/** The service and the agency credentials (Basic): without them nothing else can be checked. */
export async function checkCredentials(api: Service, baseUrl: string): Promise<Finding | undefined> {
  try {
    for await (const _ of listWorkspaces(api, { limit: 1 })) break;
    return undefined;
  } catch (err) {
    return uncheckedFinding(err, null, baseUrl);
  }
}

export async function checkWorkspace(api: Service, ws: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const wsId = jsonInteger(ws);
  const add = (f: Omit<Finding, 'workspace_id'>) => findings.push({ workspace_id: wsId, ...f });
  try {
    await api.auth.token(ws, api.client);
  } catch (err) {
    add({
      check: 'token',
      code: 'token_refused',
      message: `no token for workspace ${ws} (${describe(err)})`,
      fix: `${suggest(['workspaces', 'list'])}   (check the workspace id and that these credentials may use it)`,
    });
    return findings;
  }
  const [recipes, endpoints] = await Promise.all([
    collect(listRecipes(api, ws)),
    collect(listWebhookEndpoints(api, ws)),
  ]);
  await checkDestination(api, ws, recipes, add);
  await checkRecipeAccounts(api, ws, recipes, add);
  for (const r of recipes.filter((x) => x.state === 'ready_to_work' && x.degraded === true)) {
    const id = idText(r.recipe_id);
    const reasons = r.not_delivered_reasons ?? [];
    add({
      check: 'recipes',
      code: 'recipe_degraded',
      recipe_id: r.recipe_id,
      message: `recipe ${id} was built from less than it is configured with${reasons.length > 0 ? `: not delivered (${reasons.join(', ')})` : ''}; rows of some accounts are missing`,
      fix: `${suggest(['recipes', 'get', id], { workspace: ws })}   (each source's accounts and reasons), fix them, then ${suggest(['recipes', 'build', id, '--wait'], { workspace: ws })}`,
    });
  }
  for (const e of endpoints) {
    const id = idText(e.id);
    if (e.status === 'unverified') {
      add({
        check: 'webhooks',
        code: 'webhook_unverified',
        endpoint_id: e.id,
        message: `webhook endpoint ${id} (${e.url ?? '?'}) is unverified: the service sends it no event until it is verified`,
        fix: `${suggest(['webhooks', 'verify', id], { workspace: ws })}   (once the receiver answers the challenge; ${suggest(['webhooks', 'listen'])} does)`,
      });
    }
    const silent = (e.event_types ?? []).filter((t) => SILENT_EVENT_TYPES.has(t));
    if (silent.length > 0) {
      const keep = (e.event_types ?? []).filter((t) => !SILENT_EVENT_TYPES.has(t));
      add({
        check: 'webhooks',
        code: 'silent_event_subscription',
        endpoint_id: e.id,
        message: `webhook endpoint ${id} waits on event type(s) that produced no events in a 30-day production sample: ${silent.join(', ')}`,
        fix:
          keep.length > 0
            ? `${suggest(['webhooks', 'update', id, '--events', keep.join(',')], { workspace: ws })}   (and do not wait on the silent types)`
            : `subscribe endpoint ${id} to active event types: ${suggest(['webhooks', 'update', id, '--events', 'TYPES'], { workspace: ws })}   (${suggest(['webhooks', 'event-types'], { workspace: ws })} lists them)`,
      });
    }
  }
  return findings;
}

/**
 * An active destination that can host recipes. The destination list does not say which can;
 * the recipe extraction check does (409 no_active_destination, destination_not_supported), so
 * it is asked when the workspace has a recipe.
 */
async function checkDestination(
  api: Service,
  ws: string,
  recipes: Recipe[],
  add: (f: Omit<Finding, 'workspace_id'>) => void,
): Promise<void> {
  const destinations = await collect(listDestinations(api, ws));
  const connections = (
    await Promise.all(destinations.map((d) => collect(listDestinationConnections(api, ws, d.name))))
  ).flat();
  const fixNone = `${newDestination(ws)}   (or re-check an existing one: ${suggest(['destinations', 'connections', 'recheck', 'ID', '--destination', 'NAME'], { workspace: ws })})`;
  if (!connections.some((c) => c.status === 'active')) {
    add({
      check: 'destination',
      code: 'no_active_destination',
      message: `workspace ${ws} has no active destination; recipes cannot be created, deleted or checked`,
      fix: fixNone,
    });
    return;
  }
  const probe = recipes[0];
  if (!probe) return;
  try {
    await checkExtractions(api, ws, idText(probe.recipe_id));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'no_active_destination')
      add({
        check: 'destination',
        code: err.code,
        message: `workspace ${ws} has no active destination (${describe(err)})`,
        fix: fixNone,
        trace_id: err.traceId ?? null,
      });
    else if (err.code === 'destination_not_supported') {
      add({
        check: 'destination',
        code: err.code,
        message: `the workspace's active destination cannot host recipes (${describe(err)})`,
        fix: `${newDestination(ws)}   (a destination that hosts recipes)`,
        trace_id: err.traceId ?? null,
      });
    } else if (err.code !== 'destination_check_unsupported' && err.code !== 'destination_unavailable') throw err;
  }
}

/**
 * Accounts of configured recipes: gone inactive, or carrying keys the v3.1 accounts list does
 * not know. The latter are old v3 keys that configuration rejects; such a recipe is not to be
 * deleted and redeployed, support is contacted with its id and a trace id (docs/contract-rules.md,
 * Versioning rule 4).
 */
async function checkRecipeAccounts(
  api: Service,
  ws: string,
  recipes: Recipe[],
  add: (f: Omit<Finding, 'workspace_id'>) => void,
): Promise<void> {
  const lists = new Map<string, Promise<AccountV31[] | 'gone'>>();
  const accountsOf = (connectionId: string) => {
    let read = lists.get(connectionId);
    if (!read) {
      read = collect(listAccounts(api, ws, connectionId)).catch((err) => {
        if (err instanceof ApiError && err.status === 404) return 'gone' as const;
        throw err;
      });
      lists.set(connectionId, read);
    }
    return read;
  };
  for (const r of recipes) {
    const id = idText(r.recipe_id);
    const inactive: string[] = [];
    const unknown: string[] = [];
    const gone: string[] = [];
    for (const c of r.connections ?? []) {
      const list = await accountsOf(idText(c.connection_id));
      if (list === 'gone') {
        gone.push(`${idText(c.connection_id)} (${c.connection_data_source})`);
        continue;
      }
      for (const a of c.accounts) {
        const found = list.find((x) => idText(x.id) === idText(a.id));
        if (!found) unknown.push(idText(a.id));
        else if (!found.is_active) inactive.push(`${idText(a.id)} "${found.title}" (${c.connection_data_source})`);
      }
    }
    if (unknown.length > 0) {
      // The trace id of a read of this recipe, for support.
      const read = await readRecipe(api, ws, id);
      add({
        check: 'recipes',
        code: 'legacy_account_keys',
        recipe_id: r.recipe_id,
        trace_id: read.traceId ?? null,
        message: `recipe ${id} is configured with account key(s) the v3.1 accounts list does not know: ${unknown.join(', ')} (old v3 keys, contract Versioning rule 4); do not delete and redeploy it`,
        fix: `contact support with recipe id ${id} and trace id ${read.traceId ?? `(see ${suggest(['recipes', 'get', id, '--verbose'], { workspace: ws })})`}`,
      });
    }
    if (gone.length > 0) {
      add({
        check: 'recipes',
        code: 'connection_deleted',
        recipe_id: r.recipe_id,
        message: `recipe ${id} uses deleted connection(s) ${gone.join(', ')}; their accounts are inactive and deliver nothing`,
        fix: `reconnect: ${suggest(['iframe-url', '--type', 'datasource', '--name', (r.connections ?? []).find((c) => gone.some((g) => g.startsWith(`${idText(c.connection_id)} `)))?.connection_data_source ?? 'NAME'], { workspace: ws })}, then deploy the recipe again (${suggest(['recipes', 'deploy', '--help'])})`,
      });
    }
    if (inactive.length > 0) {
      add({
        check: 'recipes',
        code: 'inactive_accounts',
        recipe_id: r.recipe_id,
        message: `recipe ${id} has account(s) that went inactive: ${inactive.join(', ')}; builds leave their rows out`,
        fix: `reconnect the data source (${suggest(['iframe-url', '--type', 'datasource'], { workspace: ws })}), then ${suggest(['recipes', 'build', id], { workspace: ws })}`,
      });
    }
  }
}

/** The command that connects a destination able to host recipes, with placeholders for its values. */
function newDestination(ws: string): string {
  return suggest(
    ['destinations', 'connections', 'create', '--destination', 's3', '--title', 'TITLE', '--bucket', 'BUCKET'],
    {
      workspace: ws,
    },
  );
}
