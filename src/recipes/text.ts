import type { Recipe } from '../api/recipes.js';

/**
 * A recipe's state in words; states the tool does not know are shown as they come. The domain's
 * own errors (a wait that ran out, a deployment the run's stop found) name the state with it.
 */
export function stateText(recipe: Pick<Recipe, 'state' | 'degraded'>): string {
  if (recipe.state === null || recipe.state === undefined) return 'not built';
  return recipe.degraded && recipe.state === 'ready_to_work' ? `${recipe.state} (degraded)` : recipe.state;
}
