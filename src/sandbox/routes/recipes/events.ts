import type { Store } from '../../store.js';
import type { Recipe } from './model.js';

/**
 * Recipe payloads carry no product_domain_event_* keys (docs/contract-rules.md, Payload shapes); every value is a
 * string.
 */
export function recipeEventData(
  recipe: Recipe,
  opts: { description: string; manualDeactivation?: boolean; errorMessage?: string },
): Record<string, string> {
  return {
    recipe_event_is_impersonated: 'false',
    recipe_event_actor: 'api',
    recipe_event_view_name: recipe.view_name,
    recipe_event_old_view_name: '',
    recipe_event_new_view_name: '',
    recipe_event_error_message: opts.errorMessage ?? '',
    recipe_event_skip_reason: '',
    recipe_event_is_manual_deactivation: opts.manualDeactivation ? 'true' : 'false',
    recipe_event_description: opts.description,
    is_action_log: 'false',
  };
}

export function transformationEventData(
  store: Store,
  recipe: Recipe,
  startReason: string,
  run: number,
): Record<string, string> {
  return {
    agency_title: store.state.agency.title,
    workspace_title: store.workspace(recipe.workspace_id)?.title ?? '',
    mcdm_recipe_title: recipe.title,
    transformation_id: recipe.id,
    order_id: `${recipe.id}-${run}`,
    order_ui_link: 'unknown',
    start_reason: startReason,
    run_id: String(run),
  };
}
