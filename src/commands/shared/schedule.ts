import { SCHEDULES, type Schedule } from '../../contract/extraction.js';
import { parseChoice } from '../../util/validate.js';

/** `--schedule`: one of SCHEDULES, or undefined when not given. */
export function scheduleOf(value: string | undefined): Schedule | undefined {
  return value === undefined ? undefined : parseChoice(value, SCHEDULES, '--schedule');
}
