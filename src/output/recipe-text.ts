import type { BuildError, Recipe } from '../api/recipes.js';

/** A recipe's state in words, e.g. `ready_to_work (degraded)`; states the tool does not know are shown as they come. */
export function stateText(recipe: Pick<Recipe, 'state' | 'degraded'>): string {
  if (recipe.state === null || recipe.state === undefined) return 'not built';
  return recipe.degraded && recipe.state === 'ready_to_work' ? `${recipe.state} (degraded)` : recipe.state;
}

/**
 * A recipe's build error in words: its code, where it happened, and its message; codes the tool
 * does not know are shown as they come.
 */
export function errorText(error: BuildError | null | undefined): string {
  if (!error) return '';
  const where = [error.stage, error.data_source].filter(Boolean).join(', ');
  return `${error.code}${where ? ` (${where})` : ''}: ${error.message ?? ''}`.trim();
}
