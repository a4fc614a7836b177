import { getRecipe, type Recipe } from '../api/recipes.js';
import { BUILDING_STATES } from '../contract/recipes.js';
import { originOf } from '../api/path.js';
import type { Service } from '../api/service.js';
import { ExitError } from '../errors.js';
import {
  agoText,
  durationText,
  pollUntil,
  WaitUnreachableError,
  type PollFault,
  type PollOptions,
} from '../util/poll.js';
import { suggest } from '../util/suggest.js';

/**
 * Polling (pauses grow by half, up to 15 s) with a deadline that ends in exit 8, and a bound on
 * failed reads in a row that ends in exit 1 (util/poll.ts).
 */
export interface WaitOptions extends PollOptions {
  /** each state seen, for progress */
  onState?: ((recipe: Recipe) => void) | undefined;
  /** each failed read the wait goes on after, for the live line */
  onFault?: ((fault: PollFault) => void) | undefined;
  /** a read succeeded after failed ones */
  onRecover?: (() => void) | undefined;
  /**
   * A recipe's state in words, for the message of a wait that ended before the build: the
   * caller's (src/output words recipes; the domain words no state).
   */
  describe: (recipe: Recipe) => string;
}

/** The command that follows a build from where a wait stopped. */
export function pollCommand(id: string, ws: string): string {
  return suggest(['recipes', 'poll', id], { workspace: ws });
}

export class WaitTimeoutError extends ExitError {
  constructor(
    /** the recipe as last read; undefined when no read was answered */
    readonly recipe: Recipe | undefined,
    id: string,
    timeoutMs: number,
    ws: string,
    end: {
      lastAgeMs: number | undefined;
      unanswered?: boolean | undefined;
      origin: string;
      describe: (recipe: Recipe) => string;
    },
  ) {
    const keepWaiting = `keep waiting with \`${pollCommand(id, ws)}\``;
    super(
      'waitTimeout',
      recipe === undefined || end.lastAgeMs === undefined
        ? `recipe ${id} was not read within ${durationText(timeoutMs)}: the service at ${end.origin} did not answer; a build under way goes on at the service; ${keepWaiting}`
        : `recipe ${id} is still ${end.describe(recipe)} after ${durationText(timeoutMs)} (read ${agoText(end.lastAgeMs)}${end.unanswered ? '; the service did not answer the read after it' : ''}); the build goes on at the service; ${keepWaiting}`,
    );
    this.name = 'WaitTimeoutError';
  }
}

/** A wait for a build that ended because the service stopped answering; the recipe as last read, if ever. */
export class BuildWaitUnreachableError extends WaitUnreachableError {
  constructor(
    readonly recipe: Recipe | undefined,
    opts: {
      origin: string;
      id: string;
      ws: string;
      lastAgeMs: number | undefined;
      fault: PollFault;
      describe: (recipe: Recipe) => string;
    },
  ) {
    super({
      origin: opts.origin,
      what: `recipe ${opts.id}`,
      lastText: recipe ? opts.describe(recipe) : undefined,
      lastAgeMs: opts.lastAgeMs,
      fault: opts.fault,
      goesOn: 'ending the wait does not stop the build',
      resume: `resume the wait with \`${pollCommand(opts.id, opts.ws)}\``,
    });
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
    {
      timeout: ({ last, lastAgeMs, unanswered }) =>
        new WaitTimeoutError(last, id, opts.timeoutMs, ws, {
          lastAgeMs,
          unanswered,
          origin: originOf(api.client.baseUrl),
          describe: opts.describe,
        }),
      unreachable: ({ last, lastAgeMs, fault }) =>
        new BuildWaitUnreachableError(last, {
          origin: originOf(api.client.baseUrl),
          id,
          ws,
          lastAgeMs,
          fault,
          describe: opts.describe,
        }),
      onFault: opts.onFault,
      onRecover: opts.onRecover,
    },
  );
}
