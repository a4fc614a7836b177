import type { Change } from './types.js';

/**
 * What apply needs to carry out a change of an extract, a destination connection, accounts or a
 * data table, kept on the change under a symbol: the plan's JSON document and saved plans never
 * show it (JSON has no symbol keys), and a copy of the change (`{...change}`, as the plan makes
 * when it hides values from the environment) keeps it.
 */
const WORK = Symbol('edp.fleet.work');

export function withWork<W>(change: Change, work: W): Change {
  (change as unknown as Record<symbol, unknown>)[WORK] = work;
  return change;
}

export function workOf<W>(change: Change): W | undefined {
  return (change as unknown as Record<symbol, unknown>)[WORK] as W | undefined;
}
