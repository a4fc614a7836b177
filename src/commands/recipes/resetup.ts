import { resetupRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { startBuild } from './build.js';
import type { ResetupOptions } from './command.js';

export function runResetup(opts: ResetupOptions, ctx: Context): Promise<void> {
  return startBuild(ctx, opts, 'resetup', resetupRecipe);
}
