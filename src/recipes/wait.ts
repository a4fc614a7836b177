import { getRecipe, type Recipe } from '../api/recipes.js';
import { BUILDING_STATES } from '../contract/recipes.js';
import type { Service } from '../api/service.js';
import { ExitError } from '../errors.js';
import { pollUntil, type PollOptions } from '../util/poll.js';
import { stateText } from './text.js';

/** Polling (pauses grow by half, up to 15 s) with a deadline that ends in exit 8. */
export interface WaitOptions extends PollOptions {
  /** each state seen, for progress */
  onState?: ((recipe: Recipe) => void) | undefined;
}

/** The command that follows a build from where a wait stopped. */
export function pollCommand(id: string, ws: string): string {
  return `edp recipes poll ${id} -w ${ws}`;
}

export class WaitTimeoutError extends ExitError {
  constructor(
    readonly recipe: Recipe | undefined,
    id: string,
    timeoutMs: number,
    ws: string,
  ) {
    super(
      'waitTimeout',
      `recipe ${id} is still ${recipe ? stateText(recipe) : 'unread'} after ${Math.round(timeoutMs / 1000)} s; the build goes on at the service; keep waiting with \`${pollCommand(id, ws)}\``,
    );
    this.name = 'WaitTimeoutError';
  }
}

/** Polls a recipe until its build ends (`ready_to_work`, `failed`, or any state that is not a build state). */
export async function waitForBuild(api: Service, ws: string, id: string, opts: WaitOptions): Promise<Recipe> {
  let lastState: string | null | undefined;
  return pollUntil(
    () => getRecipe(api, ws, id),
    (r) => {
      if (r.state !== lastState) {
        lastState = r.state;
        opts.onState?.(r);
      }
      return !BUILDING_STATES.has(r.state ?? '');
    },
    opts,
    (last) => new WaitTimeoutError(last, id, opts.timeoutMs, ws),
  );
}
