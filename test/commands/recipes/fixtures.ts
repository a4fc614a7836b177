import { beforeEach } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

/** The workspace of most recipes tests (`-w 101`). */
export const W = ['-w', '101'];

/** The sandbox of a recipes test file: builds take 50 ms, `-w 101` is appended, no recipes before each test. */
export function useRecipeSandbox() {
  const t = useSandbox({ buildSeconds: 0.05 }, W);
  beforeEach(() => resetRecipes(t.sb));
  return t;
}
