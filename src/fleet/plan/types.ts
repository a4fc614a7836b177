import type { RecipeTemplate } from '../../api/recipes.js';
import type { Role } from '../../api/roles.js';
import type { WebhookEndpoint } from '../../api/webhooks.js';
import type { DeploySpec } from '../../recipes/spec.js';
import type { RecipeEntry, RoleEntry } from '../file.js';
import type { KindChange, KindResource } from './kinds-types.js';

/**
 * What `apply` would do to bring the live state to the fleet file, read without a single write.
 * The recipe configuration only grows (docs/contract-rules.md, Automated recipes v3.1, rule 2): what the file
 * leaves out of a configured recipe is a removal the service refuses, so it is reported as
 * blocked, never planned.
 */

export type Resource = 'recipe' | 'webhook' | 'role' | 'workspace' | KindResource;

interface ChangeOf<R extends Resource, A extends string, D> {
  resource: R;
  /** template title, receiver url or role title */
  name: string;
  action: A;
  /** the existing object's id, null when it is to be created */
  id: unknown;
  detail: D;
}

/** Accounts appended to one data source of a recipe, named as the file names them (remote:ID). */
export interface AccountsAdded {
  data_source: string;
  connection_id: unknown;
  add: string[];
}

/** A change apply makes: one kind per resource and action, each with what it changes in `detail`. */
export type Change =
  | ChangeOf<'workspace', 'create', { title: string }>
  | ChangeOf<'workspace', 'update', { title: string; was: string }>
  | ChangeOf<'recipe', 'create', { template_id: unknown; title: string }>
  | ChangeOf<
      'recipe',
      'configure',
      { accounts: AccountsAdded[]; data_sources?: string[] | undefined; sync_from_date?: string | undefined }
    >
  | ChangeOf<'recipe', 'build', { state: string | null }>
  | ChangeOf<'webhook', 'create', { events: string[] }>
  | ChangeOf<'webhook', 'update', { events: string[]; was: string[] }>
  | ChangeOf<'webhook', 'delete', { events: string[] }>
  | ChangeOf<'role', 'create', { description: string; permissions: string[] }>
  | ChangeOf<
      'role',
      'update',
      { description: string; permissions: string[]; was: { description: string; permissions: string[] } }
    >
  | ChangeOf<'role', 'delete', { user_count: number | null }>
  | KindChange;

/** Something the file asks for that cannot be done; `code` says why. */
export interface Blocked {
  resource: Resource;
  name: string;
  code: string;
  message: string;
}

/** Something of the live state worth knowing that changes nothing and blocks nothing (a deleted connection). */
export interface Note {
  resource: Resource;
  name: string;
  code: string;
  message: string;
}

/** What apply needs to carry out one recipe entry in one workspace (not part of the JSON plan). */
export interface RecipeWork {
  entry: RecipeEntry;
  template: RecipeTemplate;
  /** the deploy spec for this workspace: connection and internal account ids resolved */
  spec: DeploySpec;
}

/** What a plan holds for one scope: a workspace, or the agency (its roles). */
interface ScopePlan {
  changes: Change[];
  blocked: Blocked[];
  /** objects the file does not name, deleted only with --prune */
  unmanaged: Array<{ resource: Resource; name: string; id: unknown }>;
  error: unknown;
  /** a digest of each live object the plan was computed from, by `resource id` (a saved plan's check) */
  live: Record<string, string>;
}

export interface WorkspacePlan extends ScopePlan {
  /** the workspace's id; `new:TITLE` for a client's workspace that apply creates (then its id) */
  workspace_id: string;
  /** the client whose workspace it is: its title, and whether apply creates it */
  client?: { title: string; create: boolean } | undefined;
  /**
   * What a change was planned from where a value of the environment is shown in its place (its
   * name, its detail): what apply sends.
   */
  sent?: Map<Change, { name: string; detail: unknown }> | undefined;
  notes: Note[];
  recipes: RecipeWork[];
  endpoints: WebhookEndpoint[];
}

export interface AgencyPlan extends ScopePlan {
  roles: Role[];
  /** the file's roles with their values resolved: what apply sends */
  entries?: RoleEntry[] | undefined;
  sent?: Map<Change, { name: string; detail: unknown }> | undefined;
}

export interface FleetPlan {
  workspaces: WorkspacePlan[];
  agency: AgencyPlan;
  prune: boolean;
}

export interface PlanOptions {
  prune: boolean;
  /** the environment `${env.NAME}` values are read from */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** send the destination connections' secret fields the file gives again (the service never shows them) */
  sendSecrets?: boolean | undefined;
  /** `-w IDS`: only these workspaces of the file */
  only?: string[] | undefined;
  /** workspaces read at once, given how many there are */
  concurrency: (workspaces: number) => number;
  /** told of each workspace's plan once it is read, in the order of the workspaces */
  progress?: (plan: WorkspacePlan) => void;
}

export interface PlanTotals {
  changes: number;
  blocked: number;
  errors: number;
}
