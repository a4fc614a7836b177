import { errorLines } from '../../output/errors.js';
import {
  STEPS,
  stepNumber,
  type DeployOutcome,
  type StepEvent,
  type StepReporter,
  type StepStart,
} from '../../recipes/deploy.js';
import { pollCommand } from '../../recipes/wait.js';
import { errorText, stateText } from '../../output/recipe-text.js';
import { idText } from '../../util/json.js';
import { faultLine, type PollFault } from '../../util/poll.js';
import { suggest } from '../../util/suggest.js';

/** How a step's line is drawn: still under way (`update`), or ended with a mark. */
export type StepMark = 'update' | 'succeed' | 'warn' | 'fail';

/** A deployment step's event in words: the step's number, how it is drawn, and the text after `n/7`. */
export interface StepLine {
  n: number;
  mark: StepMark;
  text: string;
}

/** `6/7 build: ready_to_work`: a step's text with its place in the sequence. */
export function stepLabel(n: number, text: string): string {
  return `${n}/${STEPS} ${text}`;
}

/** What a step is doing as it begins. */
export function stepStartText(start: StepStart): string {
  switch (start.step) {
    case 'token':
      return `token for workspace ${start.workspace}`;
    case 'template':
      return 'template';
    case 'create':
      return 'create the recipe';
    case 'connections':
      return 'connections and accounts';
    case 'configure':
      return 'configure';
    case 'build':
      return 'build';
    case 'tables':
      return TABLES_WAIT;
  }
}

const TABLES_WAIT = 'waiting for the extraction tables';

/** `…; service unreachable (ECONNREFUSED), retrying`: a live text, and while reads fail, that they do. */
const withFault = (text: string, fault: PollFault | undefined) => (fault ? `${text}; ${faultLine(fault)}` : text);

/** The mark of a build's end: failed, degraded, or done. */
const builtMark = (r: { state?: string | null; degraded?: boolean | null }): StepMark =>
  r.state === 'failed' ? 'fail' : r.degraded ? 'warn' : 'succeed';

/** What a person reads of one event of a deployment step. */
export function stepLine(event: StepEvent): StepLine {
  const n = stepNumber(event.step);
  const line = (mark: StepMark, text: string): StepLine => ({ n, mark, text });
  if (event.phase === 'failed') return line('fail', errorLines(event.error).join('\n  '));
  if (event.phase === 'building') return line('update', withFault(`build: ${stateText(event.recipe)}`, event.fault));
  if (event.phase === 'waiting') return line('update', withFault(TABLES_WAIT, event.fault));
  if (event.phase === 'exist') return line('update', 'extraction tables exist; building once more');
  switch (event.step) {
    case 'token':
      return line('succeed', `token for workspace ${event.workspace}`);
    case 'template': {
      const t = event.template;
      return line('succeed', `template ${idText(t.id)} "${t.title}"${t.build_mode ? ` (${t.build_mode})` : ''}`);
    }
    case 'create': {
      const id = idText(event.recipe.recipe_id);
      return line(
        'succeed',
        event.adopted
          ? `adopted recipe ${id} (the workspace already had one from this template)`
          : `created recipe ${id}`,
      );
    }
    case 'connections':
      return line(
        'succeed',
        event.additions
          .map((a) => `${a.dataSource}: connection ${a.connectionId}, ${a.accountIds.length} account(s)`)
          .join('; '),
      );
    case 'configure':
      return line(
        'succeed',
        event.addedAccounts > 0
          ? `configured: ${event.addedAccounts} account(s) added`
          : event.changed
            ? 'configured'
            : 'configuration already complete; nothing sent',
      );
    case 'build': {
      const r = event.recipe;
      const how = { started: 'built', joined: 'joined the running build', none: 'already built; no new build' };
      const built = `${how[event.build]}: ${stateText(r)}`;
      if (event.rebuildsWhenTablesExist)
        return line('warn', `${built}: ${errorText(r.error)}; step ${stepNumber('tables')} builds once more`);
      const mark = builtMark(r);
      return line(mark, mark === 'fail' ? `${built}: ${errorText(r.error)}` : built);
    }
    case 'tables': {
      const r = event.recipe;
      const text = `extraction tables exist; rebuilt: ${stateText(r)}`;
      const mark = builtMark(r);
      return line(mark, mark === 'fail' ? `${text}: ${errorText(r.error)}` : text);
    }
  }
}

/** How one step is drawn: a spinner for one workspace, prefixed lines for a fleet. */
export interface StepProgress {
  update(text: string): void;
  succeed(text: string): void;
  warn(text: string): void;
  fail(text: string): void;
}

/** The deploy engine's reporter that draws each step, begun with `begin(n, text)`, through what that returns. */
export function stepReporter(begin: (n: number, text: string) => Promise<StepProgress>): StepReporter {
  return async (start) => {
    const progress = await begin(stepNumber(start.step), stepStartText(start));
    return (event) => {
      const { mark, text } = stepLine(event);
      progress[mark](text);
    };
  };
}

/**
 * What a deployment the run's stop found may have left at the service, by the step it had
 * reached, with the command that finds out; one that had ended already says how. Deploying
 * again is always safe: it adopts, appends, joins.
 */
export function interruptedNote(o: DeployOutcome, ws: string): string {
  const id = o.recipe?.recipe_id === undefined || o.recipe.recipe_id === null ? undefined : idText(o.recipe.recipe_id);
  const recipe = id === undefined ? '' : `recipe ${id} is ${stateText(o.recipe!)}`;
  if (!o.interrupted) {
    if (!o.error) return `had ended before the stop: ${recipe}`;
    const why = (o.error instanceof Error ? o.error.message.split('\n')[0]! : String(o.error)).replace(/:$/, '');
    return `had ended before the stop, failing at step ${o.step}/${STEPS} (${why})${recipe ? `; ${recipe}` : ''}`;
  }
  if (o.step <= 2) return 'interrupted before any write: nothing was changed';
  if (o.step === 3 || id === undefined)
    return `interrupted while creating the recipe: it may have been created; \`${suggest(['recipes', 'list'], { workspace: ws })}\` shows it, and deploying again adopts it`;
  if (o.step === 4)
    return o.adopted
      ? `interrupted before configuring recipe ${id} (adopted, ${stateText(o.recipe!)}): nothing was added to it; deploying again goes on from there`
      : `recipe ${id} was created, not configured; deploying again goes on from there`;
  if (o.step === 5)
    return `interrupted while configuring recipe ${id}: the configuration may have landed; \`${suggest(['recipes', 'get', id], { workspace: ws })}\` shows it, and deploying again completes it`;
  return `stopped waiting; any build of recipe ${id} continues on the service; follow it with \`${pollCommand(id, ws)}\``;
}
