import type { Store } from '../../store.js';
import { recipeIdJson, type Recipe, type RecipeTemplate } from './model.js';
import { V3_STATE } from '../../../contract/recipes.js';

/** How each API version shows the shared records (docs/contract-rules.md, The v3-vs-v3.1 table). */

export function v31Template(t: RecipeTemplate): Record<string, unknown> {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    origin: t.origin,
    categories: t.categories,
    build_mode: t.build_mode,
    data_sources: t.data_sources,
    output_columns: t.output_columns,
  };
}

function descendants(store: Store, t: RecipeTemplate): number {
  return t.children.reduce((n, id) => {
    const child = store.state.recipe_templates.find((c) => c.id === id);
    return n + 1 + (child ? descendants(store, child) : 0);
  }, 0);
}

/** v3: `level`, `dependencies_count`, `output_columns` null when none; the detail nests `children` recursively. */
export function v3Template(store: Store, t: RecipeTemplate, detail: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id,
    title: t.title,
    description: t.description,
    level: t.level,
    dependencies_count: descendants(store, t),
    data_sources: t.data_sources,
    output_columns: t.output_columns.length > 0 ? t.output_columns : null,
  };
  if (detail) {
    out.children = t.children
      .map((id) => store.state.recipe_templates.find((c) => c.id === id))
      .filter((c): c is RecipeTemplate => !!c)
      .map((c) => v3Template(store, c, true));
  }
  return out;
}

export function v31Recipe(r: Recipe): Record<string, unknown> {
  return {
    recipe_id: recipeIdJson(r.id),
    template_id: r.template_id,
    datatable_id: r.datatable_id,
    title: r.title,
    state: r.state,
    // v3.1: present (non-null) if and only if the state is failed
    error: r.state === 'failed' ? r.error : null,
    last_build_at: r.last_build_at,
    degraded: r.degraded,
    not_delivered_reasons: r.not_delivered_reasons,
    sources: r.sources,
    data_sources: r.data_sources,
    connections: r.connections.map((c) => ({
      connection_id: c.connection_id,
      connection_data_source: c.connection_data_source,
      accounts: c.account_ids.map((id) => ({ id })),
    })),
    sync_from_date: r.sync_from_date,
  };
}

/**
 * v3: display-string states, accounts as `{id, account_id}`, `last_build_at` is the time of the
 * last configuration change, no build coverage fields. In lists `recipe_id` is a string and
 * `datatable_id` is absent (v3.1 adds it to lists).
 */
export function v3Recipe(store: Store, r: Recipe, inList: boolean): Record<string, unknown> {
  const remoteOf = (id: number) => store.state.accounts.find((a) => a.id === id)?.account_id ?? null;
  return {
    recipe_id: inList ? r.id : recipeIdJson(r.id),
    template_id: r.template_id,
    ...(inList ? {} : { datatable_id: r.datatable_id }),
    title: r.title,
    state: r.state ? V3_STATE[r.state] : null,
    error: r.state === 'failed' ? r.error : null,
    last_build_at: r.configured_at,
    data_sources: r.data_sources,
    connections: r.connections.map((c) => ({
      connection_id: c.connection_id,
      connection_data_source: c.connection_data_source,
      accounts: c.account_ids.map((id) => ({ id, account_id: remoteOf(id) })),
    })),
    sync_from_date: r.sync_from_date,
  };
}
