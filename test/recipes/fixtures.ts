import type { Sandbox } from '../../src/sandbox/index.js';
import { http } from '../helpers.js';

/** Shared steps of the recipe tests: the demo workspace's ids and raw calls against the sandbox. */

export const V31 = '/api/v3.1/automated-recipes/';
export const V3 = '/api/v3/automated-recipes/';

/** Connections and active accounts of a demo workspace, by data source. */
export function demo(sb: Sandbox, ws: number, datasource: string): { connection: number; accounts: number[]; inactive: number } {
  const s = sb.store.state;
  const connection = s.connections.find((c) => c.workspace_id === ws && c.datasource_name === datasource && !c.deleted)!;
  const all = s.accounts.filter((a) => a.connection_id === connection.id);
  return { connection: connection.id, accounts: all.filter((a) => a.is_active).map((a) => a.id), inactive: all.find((a) => !a.is_active)!.id };
}

export function configuration(sb: Sandbox, ws: number, sources: Record<string, number[] | 'all'>, extra: Record<string, unknown> = {}) {
  const entries = Object.entries(sources);
  return {
    data_sources: entries.map(([ds]) => ds),
    connections: entries.map(([ds, ids]) => {
      const d = demo(sb, ws, ds);
      return { connection_id: d.connection, connection_data_source: ds, accounts: (ids === 'all' ? d.accounts : ids).map((id) => ({ id })) };
    }),
    ...extra,
  };
}

/** Creates a recipe from a template through v3.1; returns its id as digits. */
export async function createRecipe(sb: Sandbox, token: string, templateId: number, title = 'Test recipe'): Promise<string> {
  const r = await http(sb, 'POST', V31, { token, body: { template_id: templateId, title } });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return String(r.body.recipe_id);
}

export async function configure(sb: Sandbox, token: string, id: string, body: unknown) {
  return http(sb, 'PUT', `${V31}${id}/`, { token, body });
}

/** Polls the v3.1 recipe until its build ends. */
export async function waitBuilt(sb: Sandbox, token: string, id: string, timeoutMs = 10_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await http(sb, 'GET', `${V31}${id}/`, { token });
    if (r.body.state === 'ready_to_work' || r.body.state === 'failed') return r.body;
    if (Date.now() > until) throw new Error(`still ${r.body.state}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** A recipe created, configured with the given sources and built to its end. */
export async function builtRecipe(sb: Sandbox, token: string, ws: number, templateId: number, sources: Record<string, number[] | 'all'>) {
  const id = await createRecipe(sb, token, templateId);
  const put = await configure(sb, token, id, configuration(sb, ws, sources));
  if (put.status !== 200) throw new Error(`configure: ${put.status} ${put.text}`);
  const b = await http(sb, 'POST', `${V31}${id}/build/`, { token });
  if (b.status !== 202) throw new Error(`build: ${b.status} ${b.text}`);
  return { id, recipe: await waitBuilt(sb, token, id) };
}

/** Back to the demo data between tests: no recipes, no extractions, default behaviours and faults. */
export function resetRecipes(sb: Sandbox): void {
  const s = sb.store.state;
  s.recipes = [];
  s.recipe_view_claims = [];
  s.extracts = [];
  s.recipe_faults.build_errors = {};
  for (const a of s.accounts) delete a.extraction_behavior;
  for (const d of s.datasources) delete d.extraction_behavior;
}
