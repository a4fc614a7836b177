import { parseChoice } from '../../util/validate.js';

/** How often an extract or a load runs. */
export const SCHEDULES = ['hourly', 'daily', 'weekly', 'manual'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/** `--schedule`: one of SCHEDULES, or undefined when not given. */
export function scheduleOf(value: string | undefined): Schedule | undefined {
  return value === undefined ? undefined : parseChoice(value, SCHEDULES, '--schedule');
}
