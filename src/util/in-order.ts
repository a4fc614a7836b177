/**
 * Reports of work done concurrently, told in the order of the work: report `i` is told as soon
 * as every one before it has been, so a list reads in its own order while its items finish in any.
 */
export function inOrder<T = string>(count: number, tell: (report: T) => void): (i: number, report: T) => void {
  const reports: Array<T | undefined> = [];
  let told = 0;
  return (i, report) => {
    reports[i] = report;
    for (; told < count && reports[told] !== undefined; told++) tell(reports[told]!);
  };
}
