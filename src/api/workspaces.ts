import { jsonInteger } from '../util/json.js';
import type { Received } from '../contract/answers.js';
import type { agencyRecipeEnable, Sent, workspaceTitle } from '../contract/requests.js';
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
  return api.list('workspaces.list', {}, opts);
}

export function getWorkspace(api: Service, id: string): Promise<Workspace> {
  return api.read('workspaces.get', { params: { id }, expect: ['id'] });
}

export async function createWorkspace(api: Service, title: string): Promise<Workspace> {
  return api.read('workspaces.create', { body: { title } satisfies Sent<typeof workspaceTitle>, expect: ['id'] });
}

export async function updateWorkspace(api: Service, id: string, title: string): Promise<Workspace> {
  // A PUT of the same title twice leaves the same state: the registry marks it safe to repeat.
  return api.read('workspaces.rename', { params: { id }, body: { title } satisfies Sent<typeof workspaceTitle> });
}

/** The contract leaves this operation's authentication blank; the agency credential is used. */
export function listDashboards(api: Service, id: string, opts?: ListOptions): AsyncGenerator<Dashboard> {
  return api.list('workspaces.dashboards', { params: { id } }, opts);
}

/** 204, no body. Enabling an enabled recipe changes nothing: the registry marks it safe to repeat. */
export async function enableRecipe(api: Service, workspaceId: string, recipeId: string): Promise<void> {
  await api.call('workspaces.enableRecipe', {
    params: { id: workspaceId },
    body: { recipe_id: jsonInteger(recipeId) } satisfies Sent<typeof agencyRecipeEnable>,
  });
}

export function listAgencyRecipes(api: Service, opts?: ListOptions): AsyncGenerator<AgencyRecipe> {
  return api.list('agencyRecipes.list', {}, opts);
}
