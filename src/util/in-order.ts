/**
 * Reports of work done concurrently, told in the order of the work: report `i` is told as soon
 * as every one before it has been, so a list reads in its own order while its items finish in any.
 */
export function inOrder<T = string>(count: number, write: (line: T) => void): (i: number, line: T) => void {
  const lines: Array<T | undefined> = [];
  let written = 0;
  return (i, line) => {
    lines[i] = line;
    for (; written < count && lines[written] !== undefined; written++) write(lines[written]!);
  };
}
