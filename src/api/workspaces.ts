import { jsonInteger } from '../util/json.js';
import type { Received } from '../contract/answers.js';
import type { agencyRecipeEnable, Sent, workspaceTitle } from '../contract/requests.js';
import { path } from './path.js';
import type { ListOptions, Service } from './service.js';

export type Workspace = Received<'Workspace'>;

export interface Dashboard {
  id: number | string;
  title?: string;
  type?: string;
  [key: string]: unknown;
}

export interface AgencyRecipe {
  id: number | string;
  title?: string;
  [key: string]: unknown;
}

/** Agency operations: Basic authentication (docs/contract-rules.md, Authentication). */
export function listWorkspaces(api: Service, opts?: ListOptions): AsyncGenerator<Workspace> {
  return api.list<Workspace>({ path: '/api/v3/workspaces', auth: 'basic' }, opts);
}

export function getWorkspace(api: Service, id: string): Promise<Workspace> {
  return api.client.get<Workspace>(path`/api/v3/workspaces/${id}`, 'basic', undefined, ['id']);
}

export async function createWorkspace(api: Service, title: string): Promise<Workspace> {
  const res = await api.client.request<Workspace>({
    method: 'POST',
    path: '/api/v3/workspaces',
    auth: 'basic',
    body: { title } satisfies Sent<typeof workspaceTitle>,
    expect: ['id'],
  });
  return res.data;
}

export async function updateWorkspace(api: Service, id: string, title: string): Promise<Workspace> {
  // A PUT of the same title twice leaves the same state: safe to repeat on a lost answer.
  const res = await api.client.request<Workspace>({
    method: 'PUT',
    path: path`/api/v3/workspaces/${id}`,
    auth: 'basic',
    body: { title } satisfies Sent<typeof workspaceTitle>,
    repeatable: true,
  });
  return res.data;
}

/** The contract leaves this operation's authentication blank; the agency credential is used. */
export function listDashboards(api: Service, id: string, opts?: ListOptions): AsyncGenerator<Dashboard> {
  return api.list<Dashboard>({ path: path`/api/v3/workspaces/${id}/dashboards`, auth: 'basic' }, opts);
}

/** POST /api/v3/workspaces/{id}/recipes — no trailing slash, 204. */
export async function enableRecipe(api: Service, workspaceId: string, recipeId: string): Promise<void> {
  await api.client.request({
    method: 'POST',
    path: path`/api/v3/workspaces/${workspaceId}/recipes`,
    auth: 'basic',
    body: { recipe_id: jsonInteger(recipeId) } satisfies Sent<typeof agencyRecipeEnable>,
    // Enabling an enabled recipe changes nothing.
    repeatable: true,
  });
}

export function listAgencyRecipes(api: Service, opts?: ListOptions): AsyncGenerator<AgencyRecipe> {
  return api.list<AgencyRecipe>({ path: '/api/v3/recipes/', auth: 'basic' }, opts);
}
