import { LosslessNumber } from '../../../util/json.js';
import type { Store } from '../../store.js';
import type { RecipeState } from '../../../contract/recipes.js';

/**
 * The automated recipe model of the sandbox: templates, recipes, their configuration and
 * build results. Both API versions read and write the same records (docs/contract-rules.md, Versioning 1);
 * each version only serializes them differently.
 */

export type BuildMode = 'progressive' | 'atomic';

export interface OutputColumn {
  name: string;
  type: string;
}

export interface RecipeTemplate {
  id: number;
  title: string;
  description: string;
  origin: string;
  categories: string[];
  build_mode: BuildMode;
  /** data sources a recipe of this template may be configured with */
  data_sources: string[];
  /** extraction templates needed per data source, by the global template's sql suffix (e.g. campaign_performance) */
  extract_kinds: string[];
  /** templates this one is built on; their recipes are the intermediate recipes */
  children: number[];
  level: number;
  output_columns: OutputColumn[];
  /** false: carries no deployable configuration (409 template_not_deployable) */
  deployable: boolean;
  /** bumped when the template's steps change; resetup recreates a recipe's steps from it */
  revision: number;
}

export interface RecipeConnection {
  connection_id: number;
  connection_data_source: string;
  /** internal (v3.1) account ids, in configuration order */
  account_ids: number[];
}

export interface BuildError {
  code: string;
  message: string;
  stage: string | null;
  data_source: string | null;
  occurred_at: string | null;
  details: Record<string, unknown>;
}

export interface NotDelivered {
  extraction_id: number;
  account_id: number;
  reason: string;
}

export interface SourceEntry {
  data_source: string;
  status: string;
  not_delivered_count: number;
  not_delivered: NotDelivered[];
  error: BuildError | null;
}

export interface Recipe {
  /** large integer, kept as its digits */
  id: string;
  workspace_id: number;
  template_id: number;
  title: string;
  /** output table name, derived from the template's title; unique per workspace */
  view_name: string;
  datatable_id: number;
  /** null until the first build starts */
  state: RecipeState | null;
  error: BuildError | null;
  created_at: string;
  /** v3 shows this as last_build_at */
  configured_at: string | null;
  /** v3.1: when the last build started */
  last_build_at: string | null;
  degraded: boolean;
  not_delivered_reasons: string[];
  sources: SourceEntry[];
  data_sources: string[];
  connections: RecipeConnection[];
  sync_from_date: string | null;
  steps_revision: number;
  /** recipes this one is built on (deleted with it, docs/contract-rules.md, Rules 4) */
  intermediate_ids: string[];
  /** made by a build as another recipe's dependency */
  intermediate: boolean;
  /** the current or last build: its run number and the extractions it used */
  build: { run: number; extraction_ids: number[] } | null;
}

/** One-shot failures the sandbox controls arm, so that every error path can be produced. */
export interface RecipeFaults {
  data_table_reservation_failed: number;
  account_check_unavailable: number;
  delete_incomplete: number;
  destination_unavailable: number;
  /** duplicate creates that answer with an empty `existing_recipe_ids` (a race: docs/contract-rules.md, Rules 3) */
  existing_ids_lost: number;
  /** the next build of a recipe fails with this error */
  build_errors: Record<string, Partial<BuildError> & { code: string }>;
}

/** Output names held by recipes the API does not show (made elsewhere), per workspace. */
export interface ViewClaim {
  workspace_id: number;
  view_name: string;
  recipe_id: string;
}

declare module '../../types.js' {
  interface State {
    recipe_templates: RecipeTemplate[];
    recipes: Recipe[];
    recipe_view_claims: ViewClaim[];
    recipe_faults: RecipeFaults;
    /** next recipe id, as digits: ids are beyond 2^53 */
    recipe_next_id: string;
    /** v3 recipe operations switched off: their paths answer 410 (docs/contract-rules.md, Versioning 6) */
    recipe_v3_switched_off: boolean;
  }
}

/** The first recipe id: beyond 2^53, so that clients must keep ids exact. */
export const FIRST_RECIPE_ID = '9007199254740993';

export function initRecipeState(store: Store): void {
  const s = store.state;
  s.recipe_templates ??= [];
  s.recipes ??= [];
  s.recipe_view_claims ??= [];
  s.recipe_faults ??= {
    data_table_reservation_failed: 0,
    account_check_unavailable: 0,
    delete_incomplete: 0,
    destination_unavailable: 0,
    existing_ids_lost: 0,
    build_errors: {},
  };
  s.recipe_next_id ??= FIRST_RECIPE_ID;
  s.recipe_v3_switched_off ??= false;
}

export function nextRecipeId(store: Store): string {
  const id = store.state.recipe_next_id;
  store.state.recipe_next_id = (BigInt(id) + 1n).toString();
  return id;
}

/** A recipe id from a path: digits, without leading zeros. */
export function normalizeRecipeId(raw: string): string | undefined {
  if (!/^\d{1,40}$/.test(raw)) return undefined;
  return BigInt(raw).toString();
}

export function compareRecipeIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** "Paid Media: Performance" and "Paid Media Performance" both name the table paid_media_performance. */
export function viewNameOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function recipeIdJson(id: string): LosslessNumber {
  return new LosslessNumber(id);
}

export function isBuilding(recipe: Recipe): boolean {
  return recipe.state === 'extracting_data' || recipe.state === 'building_dependencies';
}

export function isConfigured(recipe: Recipe): boolean {
  return recipe.data_sources.length > 0 && recipe.connections.length > 0;
}
