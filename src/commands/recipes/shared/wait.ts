import type { Recipe } from '../../../api/recipes.js';
import type { Service } from '../../../api/service.js';
import type { Context } from '../../../context.js';
import { ExitError } from '../../../errors.js';
import { idText } from '../../../util/json.js';
import { errorText, stateText } from '../../../output/recipe-text.js';
import { pollCommand, waitForBuild, type WaitOptions } from '../../../recipes/wait.js';
import { showRecipe } from './view.js';
import { faultProgress } from '../../shared/poll.js';
import { WaitUnreachableError } from '../../../util/poll.js';
import { accountNamesFor, hasNotDelivered, type AccountNames } from './not-delivered.js';

/** What a person needs to act on accounts a build left out: their names, read only when there are some. */
export async function explainOf(
  api: Service,
  ws: string,
  recipe: Recipe,
): Promise<{ names: AccountNames; ws: string }> {
  return { names: hasNotDelivered(recipe) ? await accountNamesFor(api, ws, recipe) : new Map(), ws };
}

/**
 * Shows the final recipe and ends the command by its outcome: exit 7 when the build failed,
 * 9 when it is degraded and `--fail-on-degraded` was given.
 */
export async function reportBuildEnd(
  ctx: Context,
  recipe: Recipe,
  opts: { failOnDegraded: boolean; api: Service; ws: string },
): Promise<void> {
  if (ctx.output.machine) ctx.output.json(recipe);
  else showRecipe(ctx.output, recipe, await explainOf(opts.api, opts.ws, recipe));
  const id = idText(recipe.recipe_id);
  if (recipe.state === 'failed')
    throw new ExitError(
      'buildFailed',
      `the build of recipe ${id} failed: ${errorText(recipe.error) || 'no error given'}`,
    );
  if (recipe.state === 'ready_to_work' && recipe.degraded && opts.failOnDegraded) {
    throw new ExitError(
      'degraded',
      `recipe ${id} is ready but degraded (${(recipe.not_delivered_reasons ?? []).join(', ') || 'some data not delivered'}) and --fail-on-degraded was given`,
    );
  }
}

export async function waitWithSpinner(
  ctx: Context,
  api: Service,
  ws: string,
  id: string,
  opts: Omit<WaitOptions, 'onState' | 'describe'>,
): Promise<Recipe> {
  let label = `Waiting for recipe ${id} to build`;
  const spinner = await ctx.output.spinner(label);
  try {
    const recipe = await waitForBuild(api, ws, id, {
      ...opts,
      describe: stateText,
      onState: (r) => {
        label = `Recipe ${id}: ${stateText(r)}`;
        spinner.update(label);
      },
      ...faultProgress(ctx, spinner, () => label),
    });
    const text = `Recipe ${id}: ${stateText(recipe)}`;
    if (recipe.state === 'failed') spinner.fail(text);
    else if (recipe.degraded) spinner.warn(text);
    else spinner.succeed(text);
    return recipe;
  } catch (err) {
    if (ctx.signal?.aborted) {
      // Ctrl-C ends the wait, not the build: say where it goes on and how to follow it.
      spinner.fail(`Recipe ${id}: stopped waiting`);
      ctx.output.warn(`the build of recipe ${id} continues on the service; follow it with \`${pollCommand(id, ws)}\``);
    } else
      spinner.fail(
        `Recipe ${id}: stopped waiting${err instanceof WaitUnreachableError ? ', the service is not answering' : ''}`,
      );
    throw err;
  }
}
