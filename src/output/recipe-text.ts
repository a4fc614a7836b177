import type { BuildError } from '../api/recipes.js';

/**
 * A recipe's build error in words: its code, where it happened, and its message; codes the tool
 * does not know are shown as they come.
 */
export function errorText(error: BuildError | null | undefined): string {
  if (!error) return '';
  const where = [error.stage, error.data_source].filter(Boolean).join(', ');
  return `${error.code}${where ? ` (${where})` : ''}: ${error.message ?? ''}`.trim();
}
