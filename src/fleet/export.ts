import { inOrder } from '../util/in-order.js';
import { listRecipes, listTemplates, type RecipeTemplate } from '../api/recipes.js';
import { listRoles } from '../api/roles.js';
import type { Service } from '../api/service.js';
import { listAccounts, listAccountsV3, remoteIdLookup } from '../api/accounts.js';
import { listWebhookEndpoints } from '../api/webhooks.js';
import { listWorkspaces } from '../api/workspaces.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';
import type { FleetFile, RecipeEntry, Scope, WebhookEntry } from './file.js';
import { pool } from './pool.js';
import { exportKinds } from './export-kinds.js';

/** A workspace the export has read: how many of its recipes and endpoints the file holds. */
export interface WorkspaceRead {
  workspace: string;
  recipes: number;
  endpoints: number;
}

/**
 * The live state of some workspaces as a fleet file: recipes by template title with their
 * accounts by remote id (stable across workspaces, docs/contract-rules.md, Deployment sequence step 4),
 * webhook endpoints by url (never their secrets), and the agency's custom roles. Entries that
 * are the same in several workspaces become one entry with their `workspaces`.
 */
export async function exportFleet(
  api: Service,
  workspaces: string[],
  scope: Scope,
  opts: {
    concurrency: (workspaces: number) => number;
    warn: (text: string) => void;
    /** told of each workspace once it is read, in the order of the workspaces */
    progress: (read: WorkspaceRead) => void;
  },
): Promise<FleetFile> {
  let templates: Promise<RecipeTemplate[]> | undefined;
  // Each workspace told in the order of the list, as soon as those before it are read.
  const progress = inOrder(workspaces.length, opts.progress);
  const perWorkspace = await pool(workspaces, opts.concurrency(workspaces.length), async (ws, i) => {
    const kinds = exportKinds(api, ws, opts.warn);
    const [recipes, endpoints] = await Promise.all([
      collect(listRecipes(api, ws)),
      collect(listWebhookEndpoints(api, ws)),
      kinds,
    ]);
    const known = await (templates ??= collect(listTemplates(api, ws)));
    const remoteNames = new Map<string, Promise<(id: string) => string>>();
    const namesOf = (connectionId: string) => {
      let read = remoteNames.get(connectionId);
      if (!read) {
        read = Promise.all([
          collect(listAccounts(api, ws, connectionId)),
          collect(listAccountsV3(api, ws, connectionId)),
        ]).then(([v31, v3]) => {
          const remoteOf = remoteIdLookup(v3);
          const byId = new Map(v31.map((a) => [idText(a.id), a]));
          return (id: string) => {
            const a = byId.get(id);
            const remote = a ? remoteOf(a) : undefined;
            // An id the v3.1 list does not know (an old v3 key) stays as it is: see `edp doctor`.
            return remote !== undefined ? `remote:${remote}` : id;
          };
        });
        remoteNames.set(connectionId, read);
      }
      return read;
    };
    // The contract's recipe fields do not include the template; without it, the list's template filter tells.
    const templateOf = new Map<string, string>();
    for (const r of recipes)
      if (r.template_id !== undefined) templateOf.set(idText(r.recipe_id), idText(r.template_id));
    if (templateOf.size < recipes.length) {
      for (const t of known)
        for await (const r of listRecipes(api, ws, { templateId: idText(t.id) }))
          templateOf.set(idText(r.recipe_id), idText(t.id));
    }
    const entries: RecipeEntry[] = [];
    for (const r of recipes) {
      const templateId = templateOf.get(idText(r.recipe_id));
      if (templateId === undefined) {
        opts.warn(
          `workspace ${ws}: the template of recipe ${idText(r.recipe_id)} is not among the agency's templates; left out of the file`,
        );
        continue;
      }
      const t = known.find((x) => idText(x.id) === templateId);
      const sameTitle = t ? known.filter((x) => x.title === t.title).length > 1 : true;
      const template = t && !sameTitle ? t.title : templateId;
      const sources: RecipeEntry['sources'] = [];
      for (const ds of r.data_sources ?? []) {
        const conns = (r.connections ?? []).filter((c) => c.connection_data_source === ds);
        if (conns.length === 0) {
          opts.warn(
            `workspace ${ws}: recipe ${idText(r.recipe_id)} has data source ${ds} without a connection; left out of the file`,
          );
          continue;
        }
        if (conns.length > 1)
          opts.warn(
            `workspace ${ws}: recipe ${idText(r.recipe_id)} has ${conns.length} ${ds} connections; the file names the accounts of the first`,
          );
        const name = await namesOf(idText(conns[0]!.connection_id));
        sources.push({ dataSource: ds, accounts: conns[0]!.accounts.map((a) => name(idText(a.id))) });
      }
      if (sources.length === 0) {
        opts.warn(
          `workspace ${ws}: recipe ${idText(r.recipe_id)} (template ${template}) has no configuration; left out of the file`,
        );
        continue;
      }
      entries.push({
        template,
        ...(r.title !== undefined && r.title !== t?.title ? { title: r.title } : {}),
        ...(r.sync_from_date ? { syncFrom: r.sync_from_date } : {}),
        sources,
      });
    }
    const hooks: WebhookEntry[] = endpoints.map((e) => ({
      url: String(e.url ?? ''),
      events: [...(e.event_types ?? [])].sort(),
    }));
    progress(i, { workspace: ws, recipes: entries.length, endpoints: hooks.length });
    return { ws, entries, hooks, kinds: await kinds };
  });
  // Each workspace as a client, by id and title: groups and vars are the file's own, never the service's.
  const titles = new Map((await collect(listWorkspaces(api))).map((w) => [idText(w.id), String(w.title)]));
  const clients = workspaces.map((ws) => ({ title: titles.get(ws) ?? ws, id: ws, groups: [], vars: {} }));
  const roles = (await collect(listRoles(api)))
    .filter((r) => r.is_system !== true)
    .map((r) => ({ title: r.title, description: r.description ?? '', permissions: r.permissions ?? [] }));

  const merge = <E extends { workspaces?: Scope | undefined }>(items: Array<{ ws: string; entry: E }>): E[] => {
    const groups = new Map<string, { entry: E; workspaces: string[] }>();
    for (const { ws, entry } of items) {
      const key = JSON.stringify(entry);
      const g = groups.get(key);
      if (g) g.workspaces.push(ws);
      else groups.set(key, { entry, workspaces: [ws] });
    }
    return [...groups.values()].map((g) =>
      g.workspaces.length === workspaces.length ? g.entry : { ...g.entry, workspaces: g.workspaces },
    );
  };
  return {
    workspaces: scope,
    clients,
    recipes: merge(perWorkspace.flatMap((p) => p.entries.map((entry) => ({ ws: p.ws, entry })))),
    webhooks: merge(perWorkspace.flatMap((p) => p.hooks.map((entry) => ({ ws: p.ws, entry })))),
    roles,
    manages: { webhooks: true, roles: true },
    kinds: {
      extracts: merge(perWorkspace.flatMap((p) => p.kinds.extracts.map((entry) => ({ ws: p.ws, entry })))),
      destinations: merge(perWorkspace.flatMap((p) => p.kinds.destinations.map((entry) => ({ ws: p.ws, entry })))),
      accounts: merge(perWorkspace.flatMap((p) => p.kinds.accounts.map((entry) => ({ ws: p.ws, entry })))),
      tables: merge(perWorkspace.flatMap((p) => p.kinds.tables.map((entry) => ({ ws: p.ws, entry })))),
      manages: { extracts: true, destinations: true, accounts: true, tables: true },
    },
  };
}
