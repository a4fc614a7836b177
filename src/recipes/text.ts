import type { BuildError, Recipe } from '../api/recipes.js';

/** A recipe's state and build error in words; states and codes the tool does not know are shown as they come. */

export function stateText(recipe: Pick<Recipe, 'state' | 'degraded'>): string {
  if (recipe.state === null || recipe.state === undefined) return 'not built';
  return recipe.degraded && recipe.state === 'ready_to_work' ? `${recipe.state} (degraded)` : recipe.state;
}

export function errorText(error: BuildError | null | undefined): string {
  if (!error) return '';
  const where = [error.stage, error.data_source].filter(Boolean).join(', ');
  return `${error.code}${where ? ` (${where})` : ''}: ${error.message ?? ''}`.trim();
}
