import { suggest } from '../util/suggest.js';
import { inOrder } from '../util/in-order.js';
import { listRecipes, type Recipe, type RecipeTemplate } from '../api/recipes.js';
import type { Service } from '../api/service.js';
import { listWebhookEndpoints, listWebhookEventTypes, type WebhookEndpoint } from '../api/webhooks.js';
import { listWorkspaces } from '../api/workspaces.js';
import { ApiError, ExitError, UsageError } from '../errors.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';
import { checkSourcesAllowed } from '../recipes/deploy.js';
import type { DeploySpec } from '../recipes/spec.js';
import { entryWorkspaces, type FleetFile, type RecipeEntry } from './file.js';
import { pool } from './pool.js';

import type { FleetPlan, PlanOptions, WorkspacePlan } from './plan/types.js';
import { liveDigests, ENDPOINT_FIELDS, RECIPE_FIELDS } from './plan/live.js';
import { accountReader, planRecipe, templateReader } from './plan/recipes.js';
import { planRoles } from './plan/roles.js';
import { planWebhooks } from './plan/webhooks.js';

export type * from './plan/types.js';
import type { PlanTotals } from './plan/types.js';

/**
 * What `apply` would do to bring the live state to the fleet file, read without a single write.
 * The recipe configuration only grows (docs/contract-rules.md, Automated recipes v3.1, rule 2): what the file
 * leaves out of a configured recipe is a removal the service refuses, so it is reported as
 * blocked, never planned.
 */

/**
 * The workspaces a file applies to, every one of them checked to exist: the agency's list is
 * read once, and a workspace it does not hold is an error (exit 5) rather than a workspace with
 * nothing to change. `only` (`-w IDS`) narrows the file's scope to those workspaces; naming one
 * the file does not cover is bad input (exit 2).
 */
export async function fleetWorkspaces(
  api: Service,
  file: FleetFile,
  only?: string[],
): Promise<{ scope: string[]; all: string[] }> {
  const all = (await collect(listWorkspaces(api))).map((w) => idText(w.id));
  const named = new Set<string>(file.workspaces === 'all' ? all : file.workspaces);
  for (const e of [...file.recipes, ...file.webhooks]) for (const ws of entryWorkspaces(e, file, all)) named.add(ws);
  const missing = [...named].filter((ws) => !all.includes(ws));
  if (missing.length > 0)
    throw new ExitError(
      'notFound',
      `the fleet file names workspace${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the agency does not have; \`${suggest(['workspaces', 'list'])}\` lists them`,
    );
  if (only !== undefined) {
    const outside = only.filter((ws) => !named.has(ws));
    if (outside.length > 0)
      throw new UsageError(
        `--workspace: the fleet file does not cover workspace${outside.length > 1 ? 's' : ''} ${outside.join(', ')} (it covers ${[...named].join(', ') || 'none'})`,
      );
    for (const ws of [...named]) if (!only.includes(ws)) named.delete(ws);
  }
  return { scope: [...named].sort((a, b) => Number(a) - Number(b)), all };
}

export async function planFleet(api: Service, file: FleetFile, opts: PlanOptions): Promise<FleetPlan> {
  const { scope, all } = await fleetWorkspaces(api, file, opts.only);
  const templates = new Map(file.recipes.map((e) => [e, templateReader(api, e.template)]));
  const agency = planRoles(api, file, opts.prune);
  // Each workspace told in the order of the list, as soon as those before it are read.
  const progress = inOrder(scope.length, (p: WorkspacePlan) => opts.progress?.(p));
  const workspaces = await pool(scope, opts.concurrency(scope.length), async (ws, i) => {
    const p = await planWorkspace(api, ws, file, all, templates, opts.prune);
    progress(i, p);
    return p;
  });
  return { workspaces, agency: await agency, prune: opts.prune };
}

async function planWorkspace(
  api: Service,
  ws: string,
  file: FleetFile,
  all: string[],
  templates: Map<RecipeEntry, (ws: string) => Promise<RecipeTemplate>>,
  prune: boolean,
): Promise<WorkspacePlan> {
  const out: WorkspacePlan = {
    workspace_id: ws,
    changes: [],
    blocked: [],
    notes: [],
    unmanaged: [],
    error: null,
    live: {},
    recipes: [],
    endpoints: [],
  };
  const inScope = <E extends { workspaces?: FleetFile['workspaces'] | undefined }>(e: E) =>
    entryWorkspaces(e, file, all).includes(ws);
  try {
    const entries = file.recipes.filter(inScope);
    const hooks = file.webhooks.filter(inScope);
    const [recipes, endpoints, known] = await Promise.all([
      entries.length > 0 ? collect(listRecipes(api, ws)) : Promise.resolve([] as Recipe[]),
      file.manages.webhooks ? collect(listWebhookEndpoints(api, ws)) : Promise.resolve([] as WebhookEndpoint[]),
      hooks.length > 0
        ? collect(listWebhookEventTypes(api, ws)).then((types) => types.map((t) => t.event_name))
        : Promise.resolve([] as string[]),
    ]);
    out.endpoints = endpoints;
    out.live = {
      ...liveDigests('recipe', recipes, (r) => r.recipe_id, RECIPE_FIELDS),
      ...liveDigests('webhook', endpoints, (e) => e.id, ENDPOINT_FIELDS),
    };
    const readAccounts = accountReader(api, ws);
    for (const entry of entries) {
      let template: RecipeTemplate;
      try {
        template = await templates.get(entry)!(ws);
      } catch (err) {
        // An unknown id (404, 400 template_not_found) or title, or a title several templates share.
        const usage = (err as Error).name === 'UsageError';
        if (!(err instanceof ApiError && [400, 404].includes(err.status)) && !(err instanceof ExitError) && !usage)
          throw err;
        const code =
          err instanceof ApiError
            ? (err.code ?? 'template_not_found')
            : usage
              ? 'template_ambiguous'
              : 'template_not_found';
        out.blocked.push({
          resource: 'recipe',
          name: entry.template,
          code,
          message: `${(err as Error).message.split('\n')[0]!}; the template cannot be deployed`,
        });
        continue;
      }
      try {
        checkSourcesAllowed(template, { sources: entry.sources } as DeploySpec);
      } catch (err) {
        out.blocked.push({
          resource: 'recipe',
          name: entry.template,
          code: 'data_source_not_allowed',
          message: (err as Error).message,
        });
        continue;
      }
      await planRecipe(api, ws, entry, template, recipes, readAccounts, out);
    }
    planWebhooks(hooks, endpoints, known, prune, file.manages.webhooks, out);
  } catch (err) {
    out.error = err;
  }
  return out;
}

export function planTotals(plan: FleetPlan): PlanTotals {
  const parts = [...plan.workspaces, plan.agency];
  return {
    changes: parts.reduce((n, p) => n + p.changes.length, 0),
    blocked: parts.reduce((n, p) => n + p.blocked.length, 0),
    errors: parts.filter((p) => p.error).length,
  };
}

/** The version of the plan's JSON document (docs/plan.schema.json); it changes only when a reader would break. */
export const PLAN_FORMAT_VERSION = 1;
