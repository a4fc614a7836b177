import type { Context } from '../../context.js';
import { ExitError } from '../../errors.js';
import { parseWaves, type Wave, type WaveBound, type WavesOutcome } from '../../fleet/waves.js';
import { parsePositiveInt } from '../../util/validate.js';
import { workspaceKeyText } from '../shared/plan-text.js';

/** `--max-changes` and `--waves` as given, checked before anything is sent (exit 2 naming the flag). */
export interface Limits {
  maxChanges: number | undefined;
  waves: { spec: string; bounds: WaveBound[] } | undefined;
}

export function readLimits(opts: { maxChanges?: string | undefined; waves?: string | undefined }): Limits {
  return {
    maxChanges: opts.maxChanges === undefined ? undefined : parsePositiveInt(opts.maxChanges, '--max-changes'),
    waves: opts.waves === undefined ? undefined : { spec: opts.waves, bounds: parseWaves(opts.waves) },
  };
}

/**
 * A plan of more changes than `--max-changes` allows, refused before the question and before
 * any change (exit 6): the count, the limit, and the ways on.
 */
export function checkMaxChanges(changes: number, max: number | undefined, saved: boolean): void {
  if (max === undefined || changes <= max) return;
  const narrow = saved ? 'plan again with -w IDS (or a smaller file) and apply that plan' : 'narrow it with -w IDS';
  throw new ExitError(
    'conflict',
    `the plan has ${changes} changes, more than --max-changes ${max}; nothing was sent. Review the plan above: ${narrow}, or give --max-changes ${changes} if all of it is meant`,
  );
}

/** A wave for a person: `wave 1 of 3: 101, agency roles`, or `wave 1 of 3 failed: 101` with how it `ended`. */
export function waveText(w: Wave, ended?: string): string {
  const parts = w.workspaces.map((p) => workspaceKeyText(p.workspace_id));
  if (w.agency) parts.push('agency roles');
  return `wave ${w.number} of ${w.of}${ended ? ` ${ended}` : ''}: ${parts.join(', ')}`;
}

/** The waves after a failed one: `wave 3 was`, `waves 3 to 5 were`. */
function later(failed: Wave): string {
  const next = failed.number + 1;
  return next === failed.of ? `wave ${next} was` : `waves ${next} to ${failed.of} were`;
}

/**
 * After the rows: each wave with how it ended, and when a failure stopped the run, every
 * workspace it did not touch (a warning: shown even with --quiet) and the command that shows
 * what is left.
 */
export function reportWaves(ctx: Context, waves: Wave[], outcome: WavesOutcome, replan: string): void {
  for (const w of waves) {
    const failed = outcome.stopped ? 'was stopped' : 'failed';
    const ended =
      w === outcome.failed ? failed : outcome.notStarted.includes(w) ? 'not started' : 'ended without failure';
    ctx.output.info(waveText(w, ended));
  }
  const failed = outcome.failed;
  if (!failed || outcome.notStarted.length === 0) return;
  const untouched = outcome.notStarted.flatMap((w) => w.workspaces.map((p) => workspaceKeyText(p.workspace_id)));
  ctx.output.warn(
    `wave ${failed.number} of ${failed.of} ${outcome.stopped ? 'was stopped' : 'failed'}, so ${later(failed)} not started: nothing was sent to workspace(s) ${untouched.join(', ')}; ${outcome.stopped ? '' : 'once the failure is dealt with, '}\`${replan}\` shows what is left`,
  );
}
