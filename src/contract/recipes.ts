/**
 * Facts of the automated recipe operations, as the contract gives them ("States and
 * transitions"), for the client and the sandbox alike.
 */

/** The v3.1 values of a recipe's `state` (lower case); the service may add others, shown as they come. */
export const RECIPE_STATES = ['extracting_data', 'building_dependencies', 'ready_to_work', 'failed'] as const;

export type RecipeState = (typeof RECIPE_STATES)[number];

/** The states of a build under way: a wait goes on while the recipe is in one of them. */
export const BUILDING_STATES: ReadonlySet<string> = new Set<RecipeState>(['extracting_data', 'building_dependencies']);

/**
 * The same states as v3 writes them (display strings; v3.1 changed them to lower case, docs/contract-rules.md,
 * Versioning 3).
 */
export const V3_STATE: Record<RecipeState, string> = {
  extracting_data: 'Extracting Data',
  building_dependencies: 'Building Dependencies',
  ready_to_work: 'Ready to work',
  failed: 'Failed',
};
