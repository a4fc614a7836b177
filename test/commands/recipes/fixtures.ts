import { beforeEach } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

/** The workspace of most recipes tests (`-w 101`). */
export const W = ['-w', '101'];

/**
 * The sandbox of each recipes test, fresh, without recipes or extractions, `-w 101` appended.
 * Builds take no time: each is done by the sandbox's next answer (its clock stands still).
 */
export function useRecipeSandbox() {
  const t = useSandbox({ buildSeconds: 0 }, W, { each: true });
  // Without the demo's extractions, which have delivered already: a build waits on new ones,
  // whose behaviour a test sets (extraction-behavior), so its outcome is the test's to choose.
  beforeEach(() => resetRecipes(t.sb));
  return t;
}
